import type { PoolClient, Queryable } from '@pwa/db';

/**
 * Who and why of the back-office's approved fundings (operator_fundings, migration
 * 1700000001400): one row per admin funding or correction, written in the posting's transaction.
 */
export interface OperatorFundingRecord {
  transferId: string;
  direction: 'credit' | 'debit';
  operatorId: string;
  operatorName: string;
  makerId: string;
  checkerId: string;
  reference: string;
}

interface OperatorFundingRow {
  transfer_id: string;
  direction: 'credit' | 'debit';
  operator_id: string;
  operator_name: string;
  maker_id: string;
  checker_id: string;
  reference: string;
  recorded_at: Date;
}

export async function insertOperatorFunding(client: PoolClient, record: OperatorFundingRecord): Promise<void> {
  await client.query(
    `INSERT INTO operator_fundings (transfer_id, direction, operator_id, operator_name, maker_id, checker_id, reference)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [record.transferId, record.direction, record.operatorId, record.operatorName, record.makerId, record.checkerId, record.reference],
  );
}

export async function findOperatorFunding(db: Queryable, transferId: string): Promise<(OperatorFundingRecord & { recordedAt: Date }) | undefined> {
  const result = await db.query<OperatorFundingRow>(
    `SELECT transfer_id, direction, operator_id, operator_name, maker_id, checker_id, reference, recorded_at FROM operator_fundings WHERE transfer_id = $1`,
    [transferId],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    transferId: row.transfer_id,
    direction: row.direction,
    operatorId: row.operator_id,
    operatorName: row.operator_name,
    makerId: row.maker_id,
    checkerId: row.checker_id,
    reference: row.reference,
    recordedAt: row.recorded_at,
  };
}
