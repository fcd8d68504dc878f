import { minorFromDatabase, type Currency } from '@pwa/money';
import type { PoolClient, Queryable } from '@pwa/db';
import type { PostingKind } from '../domain/posting';

/**
 * The operator's reversal of a disbursement (decision 0053): finding the posted transfer the
 * operator names, the accounts it moved, an earlier reversal of it, and the audit record
 * (operator_reversals, migration 1700000001300).
 */

/** How the operator names the disbursement: its public PKD-… referenceId, or its ledger TXN-… id. */
export type ReversalTarget = { referenceId: string } | { transactionId: string };

export interface PostedTransferToReverse {
  transferId: string;
  kind: PostingKind;
  transactionId: string;
  userId: string | null;
  userPhone: string | null;
  partnerId: string | null;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
  postedAt: Date;
  referenceId: string | null;
  externalId: string | null;
}

interface PostedTransferRow {
  transfer_id: string;
  kind: PostingKind;
  transaction_id: string;
  user_id: string | null;
  phone: string | null;
  partner_id: string | null;
  currency: Currency;
  amount_minor: string;
  fee_minor: string;
  posted_at: Date;
  reference_id: string | null;
  external_id: string | null;
}

/**
 * The posted transfers the target names, the disbursement first: a PKD-… names the disbursement
 * and, once reversed, its reversal too (which keeps the PKD-… for the statement); a TXN-… names
 * one transfer. By referenceId this scans transfers (no index, see the migration); by
 * transactionId it is the unique index. At most a handful of rows either way.
 */
export async function findPostedTransfersNamed(db: Queryable, target: ReversalTarget): Promise<PostedTransferToReverse[]> {
  const [column, value] = 'referenceId' in target ? ['reference_id', target.referenceId] : ['transaction_id', target.transactionId];
  const result = await db.query<PostedTransferRow>(
    `SELECT t.transfer_id, t.kind, t.transaction_id, t.user_id, u.phone, t.partner_id, t.currency, t.amount_minor::text, t.fee_minor::text,
            t.posted_at, t.reference_id, t.external_id
       FROM transfers t LEFT JOIN users u ON u.user_id = t.user_id
      WHERE t.${column} = $1 AND t.state = 'posted'
      ORDER BY t.kind = 'disbursement' DESC, t.posted_at
      LIMIT 10`,
    [value],
  );
  return result.rows.map((row) => ({
    transferId: row.transfer_id,
    kind: row.kind,
    transactionId: row.transaction_id,
    userId: row.user_id,
    userPhone: row.phone,
    partnerId: row.partner_id,
    currency: row.currency,
    amountMinor: minorFromDatabase(row.amount_minor),
    feeMinor: minorFromDatabase(row.fee_minor),
    postedAt: row.posted_at,
    referenceId: row.reference_id,
    externalId: row.external_id,
  }));
}

export interface EarlierReversal {
  reversalTransferId: string;
  transactionId: string;
  operator: string;
  reason: string;
  createdAt: Date;
}

/** The reversal of a disbursement, if it has one (there is at most one: the UNIQUE of reversed_transfer_id). */
export async function findReversalOf(db: Queryable, reversedTransferId: string): Promise<EarlierReversal | undefined> {
  const result = await db.query<{ reversal_transfer_id: string; transaction_id: string; operator: string; reason: string; created_at: Date }>(
    `SELECT r.reversal_transfer_id, t.transaction_id, r.operator, r.reason, r.created_at
       FROM operator_reversals r JOIN transfers t ON t.transfer_id = r.reversal_transfer_id
      WHERE r.reversed_transfer_id = $1`,
    [reversedTransferId],
  );
  const row = result.rows[0];
  return row && { reversalTransferId: row.reversal_transfer_id, transactionId: row.transaction_id, operator: row.operator, reason: row.reason, createdAt: row.created_at };
}

/**
 * The ledger accounts a disbursement moved: the user's wallet account and the partner's, from its
 * own entries, so the reversal moves exactly those (whatever became of the wallet row since).
 */
export async function accountsMovedBy(db: Queryable, transferId: string): Promise<{ userWalletAccountId: string | undefined; partnerAccountId: string | undefined }> {
  const result = await db.query<{ account_id: string; kind: string }>(
    `SELECT e.account_id::text, a.kind FROM entries e JOIN ledger_accounts a ON a.account_id = e.account_id
      WHERE e.transfer_id = $1 AND a.kind IN ('user_wallet', 'partner')`,
    [transferId],
  );
  const accountOf = (kind: string): string | undefined => result.rows.find((row) => row.kind === kind)?.account_id;
  return { userWalletAccountId: accountOf('user_wallet'), partnerAccountId: accountOf('partner') };
}

export interface ReversalAudit {
  reversalTransferId: string;
  reversedTransferId: string;
  reason: string;
  operator: string;
  /** The person who executed it and the approval's maker and checker (the back-office's route); null from the CLI. */
  approval: { operatorId: string; makerId: string; checkerId: string } | null;
}

/** The Postgres name of the constraint that lets a disbursement be reversed once. */
export const oneReversalPerDisbursementConstraint = 'operator_reversals_reversed_transfer_id_key';

/** The audit record, in the reversal's transaction; a second reversal of one disbursement fails on its UNIQUE. */
export async function insertReversalAudit(client: PoolClient, audit: ReversalAudit): Promise<Date> {
  const result = await client.query<{ created_at: Date }>(
    `INSERT INTO operator_reversals (reversal_transfer_id, reversed_transfer_id, reason, operator, operator_id, maker_id, checker_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING created_at`,
    [audit.reversalTransferId, audit.reversedTransferId, audit.reason, audit.operator, audit.approval?.operatorId ?? null, audit.approval?.makerId ?? null, audit.approval?.checkerId ?? null],
  );
  const row = result.rows[0];
  if (!row) throw new Error('the reversal audit insert returned no row');
  return row.created_at;
}
