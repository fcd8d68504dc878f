import { execFile } from 'node:child_process';
import { userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Currency } from '@pwa/money';
import {
  balanceOfPartner,
  balanceOfSystemAccount,
  balanceOfWallet,
  createTestPartner,
  createTestUser,
  expectLedgerInvariantsHold,
  getJson,
  postJson,
  startWalletHarness,
  transferBody,
  type WalletHarness,
} from './wallet-harness';
import { reverseDisbursement, type ReverseDisbursementRequest } from '../../src/use-cases/reverse-disbursement';
import { OperatorRefusal } from '../../src/use-cases/operator-refusal';
import { changeUser } from '../../src/use-cases/manage-users';

/**
 * The operator's reversal of a disbursement (decision 0053): the use case against the real ledger,
 * and the built CLI (npm run operator -- reverse-disbursement) against the same database.
 */
let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness();
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

let disbursementCounter = 0;

interface Disbursed {
  phone: string;
  partnerId: string;
  transferId: string;
  transactionId: string;
  referenceId: string;
  externalId: string;
}

/** A user paid by a funded partner through the internal API, as the disbursements service does. */
async function disburse(options: { currency?: Currency; amountMinor?: bigint; feeMinor?: bigint; partnerBalanceMinor?: bigint; userBalanceMinor?: bigint } = {}): Promise<Disbursed> {
  const currency = options.currency ?? 'USD';
  const userBalances: Partial<Record<Currency, bigint>> = { [currency]: options.userBalanceMinor ?? 0n };
  const partnerBalances: Partial<Record<Currency, bigint>> = { [currency]: options.partnerBalanceMinor ?? 10_000n };
  const user = await createTestUser(harness, { balances: userBalances });
  const partnerId = await createTestPartner(harness, partnerBalances);
  disbursementCounter += 1;
  const referenceId = `PKD-1718000000000-${disbursementCounter.toString(16).toUpperCase().padStart(24, '0')}`;
  const externalId = `payout-${disbursementCounter}`;
  const body = {
    ...transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency, amountMinor: String(options.amountMinor ?? 1_050n), feeMinor: String(options.feeMinor ?? 35n) }),
    referenceId,
    externalId,
  };
  const answer = await postJson(`${harness.baseUrl}/internal/transfers`, body);
  expect(answer.status).toBe(200);
  return { phone: user.phone, partnerId, transferId: body.transferId, transactionId: answer.body.transactionId, referenceId, externalId };
}

function reverse(target: ReverseDisbursementRequest['target'], reason = 'sent to the wrong number (ticket 42)'): ReturnType<typeof reverseDisbursement> {
  return reverseDisbursement(harness.pool, { target, reason, operator: 'ops.tester' });
}

async function refusalOf(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof OperatorRefusal)) throw new Error(`expected an OperatorRefusal, got ${String(error)}`);
  return error.message;
}

async function reversalsOf(transferId: string): Promise<{ reversal_transfer_id: string; reason: string; operator: string; kind: string; reference_id: string | null; external_id: string | null }[]> {
  const result = await harness.sql.query(
    `SELECT r.reversal_transfer_id, r.reason, r.operator, t.kind, t.reference_id, t.external_id
       FROM operator_reversals r JOIN transfers t ON t.transfer_id = r.reversal_transfer_id WHERE r.reversed_transfer_id = $1`,
    [transferId],
  );
  return result.rows;
}

/** The wallet.disbursement_reversed events in the wallet's outbox for one disbursement (decision 0063). */
async function reversalEventsOf(referenceId: string): Promise<Record<string, unknown>[]> {
  const result = await harness.sql.query<{ payload: { type: string; version: number; producer: string; data: Record<string, unknown> } }>(
    `SELECT payload FROM outbox WHERE routing_key = 'wallet.disbursement_reversed' AND payload->'data'->>'referenceId' = $1`,
    [referenceId],
  );
  return result.rows.map((row) => ({ type: row.payload.type, version: row.payload.version, producer: row.payload.producer, ...row.payload.data }));
}

async function transferCount(): Promise<number> {
  return Number((await harness.sql.query<{ count: string }>(`SELECT count(*) FROM transfers`)).rows[0]?.count);
}

describe('reversing a disbursement (use case)', () => {
  it('when a disbursement is reversed by its referenceId, then the user pays back the amount, the fee stays earned, the audit row is written and the statement shows it', async () => {
    const disbursed = await disburse({ amountMinor: 1_050n, feeMinor: 35n, partnerBalanceMinor: 10_000n, userBalanceMinor: 200n });
    const feeRevenueBefore = await balanceOfSystemAccount(harness, 'fee_revenue', 'USD');
    expect(await balanceOfWallet(harness, disbursed.phone, 'USD')).toBe(1_250n);
    expect(await balanceOfPartner(harness, disbursed.partnerId, 'USD')).toBe(8_915n);

    const summary = await reverse({ referenceId: disbursed.referenceId });

    expect(summary).toMatchObject({
      currency: 'USD',
      amountMinor: 1_050n,
      user: { phone: disbursed.phone, beforeMinor: 1_250n, afterMinor: 200n },
      partner: { partnerId: disbursed.partnerId, beforeMinor: 8_915n, afterMinor: 9_965n },
      disbursement: { transferId: disbursed.transferId, transactionId: disbursed.transactionId, feeMinor: 35n },
      operator: 'ops.tester',
    });
    expect(await balanceOfWallet(harness, disbursed.phone, 'USD')).toBe(200n);
    expect(await balanceOfPartner(harness, disbursed.partnerId, 'USD')).toBe(9_965n);
    expect(await balanceOfSystemAccount(harness, 'fee_revenue', 'USD')).toBe(feeRevenueBefore);
    const entries = await harness.sql.query(
      `SELECT a.kind, e.amount_minor FROM entries e JOIN ledger_accounts a ON a.account_id = e.account_id WHERE e.transfer_id = $1 ORDER BY e.entry_id`,
      [summary.reversal.transferId],
    );
    expect(entries.rows).toEqual([
      { kind: 'user_wallet', amount_minor: '-1050' },
      { kind: 'partner', amount_minor: '1050' },
    ]);
    expect(await reversalsOf(disbursed.transferId)).toEqual([
      { reversal_transfer_id: summary.reversal.transferId, reason: 'sent to the wrong number (ticket 42)', operator: 'ops.tester', kind: 'reversal', reference_id: disbursed.referenceId, external_id: disbursed.externalId },
    ]);
    // The partner is told through the outbox, written in the reversal's transaction: no operator, no reason.
    expect(await reversalEventsOf(disbursed.referenceId)).toEqual([
      {
        type: 'wallet.disbursement_reversed',
        version: 1,
        producer: 'wallet',
        eventId: expect.any(String),
        event: 'wallet.disbursement_reversed',
        partnerId: disbursed.partnerId,
        referenceId: disbursed.referenceId,
        disbursementTransactionId: disbursed.transactionId,
        reversalTransactionId: summary.reversal.transactionId,
        amount: 10.5,
        currency: 'USD',
        reversedAt: summary.reversal.postedAt.toISOString(),
      },
    ]);

    const hourMs = 60 * 60 * 1000;
    const query = new URLSearchParams({ currency: 'USD', from: new Date(Date.now() - hourMs).toISOString(), to: new Date(Date.now() + hourMs).toISOString() });
    const page = (await getJson(`${harness.baseUrl}/partner/v1/statement?${query.toString()}`, { 'x-partner-id': disbursed.partnerId })).body.data;
    expect(page.items.map((item: any) => [item.type, item.amount, item.balanceAfter, item.referenceId, item.externalId, item.transactionId])).toEqual([
      ['funding', 100, 100, expect.stringMatching(/^TXN-/), null, expect.stringMatching(/^TXN-/)],
      ['disbursement', -10.5, 89.5, disbursed.referenceId, disbursed.externalId, disbursed.transactionId],
      ['disbursement_fee', -0.35, 89.15, disbursed.referenceId, disbursed.externalId, disbursed.transactionId],
      ['reversal', 10.5, 99.65, disbursed.referenceId, disbursed.externalId, summary.reversal.transactionId],
    ]);
    expect(page).toMatchObject({ openingBalance: 0, closingBalance: 99.65 });
    await expectLedgerInvariantsHold(harness);
  });

  it('when a disbursement is named by its transactionId, then it is reversed the same way', async () => {
    const disbursed = await disburse({ currency: 'LRD', amountMinor: 5_000n, feeMinor: 0n, partnerBalanceMinor: 5_000n });
    const summary = await reverse({ transactionId: disbursed.transactionId });
    expect(summary).toMatchObject({ currency: 'LRD', user: { beforeMinor: 5_000n, afterMinor: 0n }, partner: { beforeMinor: 0n, afterMinor: 5_000n } });
    expect(await balanceOfPartner(harness, disbursed.partnerId, 'LRD')).toBe(5_000n);
  });

  it('when the user is suspended, KYC rejected and the wallet frozen, then the operator’s correction still posts', async () => {
    const disbursed = await disburse();
    await changeUser(harness.pool, disbursed.phone, { accountStatus: 'suspended', kycStatus: 'rejected', freeze: ['USD'] });
    const summary = await reverse({ referenceId: disbursed.referenceId });
    expect(summary.user.afterMinor).toBe(0n);
    expect(await balanceOfWallet(harness, disbursed.phone, 'USD')).toBe(0n);
  });

  it('when the disbursement is unknown, is not a disbursement, was reversed already, or the wallet no longer holds the amount, then it is refused clearly and nothing is posted', async () => {
    const before = await transferCount();
    expect(await refusalOf(reverse({ referenceId: 'PKD-1-00FF' }))).toContain('No posted transfer in the ledger has referenceId PKD-1-00FF');
    expect(await refusalOf(reverse({ transactionId: 'TXN-0000000000000000' }))).toContain('No posted transfer');
    expect(await transferCount()).toBe(before);

    const user = await createTestUser(harness, { balances: { USD: 1_000n } });
    const partnerId = await createTestPartner(harness);
    const collection = await postJson(`${harness.baseUrl}/internal/transfers`, { ...transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '100' }), referenceId: 'PKC-1-00AB' });
    const countAfterSetUp = await transferCount();
    expect(await refusalOf(reverse({ transactionId: collection.body.transactionId }))).toContain('is a collection');
    expect(await refusalOf(reverse({ referenceId: 'PKC-1-00AB' }))).toContain('not a disbursement');
    expect(await transferCount()).toBe(countAfterSetUp);

    const disbursed = await disburse({ amountMinor: 700n, feeMinor: 7n });
    const first = await reverse({ referenceId: disbursed.referenceId });
    const countAfterFirst = await transferCount();
    const again = await refusalOf(reverse({ referenceId: disbursed.referenceId }));
    expect(again).toContain(`already reversed by ${first.reversal.transactionId}`);
    expect(again).toContain(first.reversal.postedAt.toISOString().slice(0, 16));
    expect(await refusalOf(reverse({ transactionId: disbursed.transactionId }))).toContain('already reversed');
    // The reversal keeps the PKD-…, so the reversal itself is found by it too, but never reversed.
    expect(await refusalOf(reverse({ transactionId: first.reversal.transactionId }))).toContain('is a reversal');
    expect(await transferCount()).toBe(countAfterFirst);
    expect(await reversalEventsOf(disbursed.referenceId)).toHaveLength(1);

    const spent = await disburse({ amountMinor: 1_000n, feeMinor: 10n });
    const spender = await createTestPartner(harness);
    expect((await postJson(`${harness.baseUrl}/internal/transfers`, transferBody({ type: 'collection', partnerId: spender, phone: spent.phone, currency: 'USD', amountMinor: '1' }))).status).toBe(200);
    const countBeforeShort = await transferCount();
    expect(await refusalOf(reverse({ referenceId: spent.referenceId }))).toContain('wallet holds 9.99; reversing disbursement');
    expect(await transferCount()).toBe(countBeforeShort);
    expect(await balanceOfWallet(harness, spent.phone, 'USD')).toBe(999n);
    expect(await reversalsOf(spent.transferId)).toEqual([]);
  });

  it('when a disbursement without a PKD-… referenceId of the disbursements service is reversed, then it is posted and no event is written (no partner knows it by that name)', async () => {
    const user = await createTestUser(harness, { balances: { USD: 0n } });
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const body = { ...transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '500', feeMinor: '5' }), referenceId: 'PKD-1-00FE', externalId: 'legacy-1' };
    expect((await postJson(`${harness.baseUrl}/internal/transfers`, body)).status).toBe(200);
    const summary = await reverse({ referenceId: 'PKD-1-00FE' });
    expect(summary.amountMinor).toBe(500n);
    expect(await reversalEventsOf('PKD-1-00FE')).toEqual([]);
  });

  it('when the audit table is written by hand, then the database refuses a second reversal of one disbursement, an empty reason, and any rewrite', async () => {
    const disbursed = await disburse();
    await reverse({ referenceId: disbursed.referenceId });
    const other = await disburse();
    const audit = (reversalTransferId: string, reversedTransferId: string, reason: string) =>
      harness.sql.query(`INSERT INTO operator_reversals (reversal_transfer_id, reversed_transfer_id, reason, operator) VALUES ($1, $2, $3, 'psql')`, [
        reversalTransferId,
        reversedTransferId,
        reason,
      ]);
    await expect(audit(other.transferId, disbursed.transferId, 'again')).rejects.toThrow(/operator_reversals_reversed_transfer_id_key/);
    await expect(audit(disbursed.transferId, other.transferId, '')).rejects.toThrow(/operator_reversals_reason_check/);
    await expect(audit(disbursed.transferId, other.transferId, 'x'.repeat(501))).rejects.toThrow(/operator_reversals_reason_check/);
    await expect(harness.sql.query(`UPDATE operator_reversals SET reason = 'edited' WHERE reversed_transfer_id = $1`, [disbursed.transferId])).rejects.toThrow(/append-only/);
    await expect(harness.sql.query(`DELETE FROM operator_reversals WHERE reversed_transfer_id = $1`, [disbursed.transferId])).rejects.toThrow(/append-only/);
    expect(await reversalsOf(disbursed.transferId)).toHaveLength(1);
    expect(await reversalsOf(other.transferId)).toEqual([]);
  });

  it('when 10 reversals of one disbursement run at once, then exactly one posts and the others are refused as already reversed', async () => {
    const disbursed = await disburse({ amountMinor: 2_000n, feeMinor: 20n, userBalanceMinor: 50_000n });
    const partnerBefore = await balanceOfPartner(harness, disbursed.partnerId, 'USD');
    const settled = await Promise.allSettled(Array.from({ length: 10 }, () => reverse({ referenceId: disbursed.referenceId })));
    const posted = settled.filter((outcome) => outcome.status === 'fulfilled');
    const refused = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(posted).toHaveLength(1);
    expect(refused).toHaveLength(9);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(OperatorRefusal);
      expect((reason as Error).message).toContain('already reversed');
    }
    expect(await reversalsOf(disbursed.transferId)).toHaveLength(1);
    expect(await reversalEventsOf(disbursed.referenceId)).toHaveLength(1);
    expect(await balanceOfWallet(harness, disbursed.phone, 'USD')).toBe(50_000n);
    expect(await balanceOfPartner(harness, disbursed.partnerId, 'USD')).toBe(partnerBefore + 2_000n);
    await expectLedgerInvariantsHold(harness);
  });
});

describe('reverse-disbursement (built operator CLI)', () => {
  const cliPath = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');
  const run = promisify(execFile);

  /** In production the direct command is break-glass (decision 0073): these runs give the reason, unless told not to. */
  async function operator(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return operatorRun([...args, '--break-glass', 'INC-9 reversal while the back-office is down']);
  }

  async function operatorRun(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run('node', [cliPath, ...args], {
        env: { PATH: process.env.PATH, DATABASE_URL: harness.config.DATABASE_URL, ENVIRONMENT: 'production', LOG_LEVEL: 'silent' },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it('when the operator reverses a disbursement, then the JSON names the reversal, both balances before and after and the operator (the OS user by default)', async () => {
    const disbursed = await disburse({ amountMinor: 2_550n, feeMinor: 26n, userBalanceMinor: 100n });
    const refused = await operatorRun(['reverse-disbursement', '--reference-id', disbursed.referenceId, '--reason', 'paid twice', '--json']);
    expect({ code: refused.code, error: JSON.parse(refused.stdout).error }).toEqual({ code: 2, error: expect.stringContaining('backoffice request-reversal') });
    const answer = await operator('reverse-disbursement', '--reference-id', disbursed.referenceId.toLowerCase(), '--reason', 'paid twice', '--json');
    expect(answer.code).toBe(0);
    expect(answer.stderr).toContain('BREAK-GLASS by');
    expect(JSON.parse(answer.stdout)).toMatchObject({
      state: 'posted',
      reversal: { transactionId: expect.stringMatching(/^TXN-[0-9A-F]{16}$/) },
      disbursement: { referenceId: disbursed.referenceId, transactionId: disbursed.transactionId, externalId: disbursed.externalId, amount: '25.50', fee: '0.26' },
      currency: 'USD',
      amount: '25.50',
      user: { phone: disbursed.phone, balanceBefore: '26.50', balanceAfter: '1.00' },
      partner: { partnerId: disbursed.partnerId, balanceBefore: '74.24', balanceAfter: '99.74' },
      reason: 'paid twice',
      operator: userInfo().username,
    });
    expect(await balanceOfPartner(harness, disbursed.partnerId, 'USD')).toBe(9_974n);
  });

  it('when run without --json, then the summary shows the balances before and after; a second run is refused with exit 1; a missing reason is a usage error', async () => {
    const disbursed = await disburse({ amountMinor: 1_000n, feeMinor: 10n });
    const text = await operator('reverse-disbursement', '--transaction-id', disbursed.transactionId, '--reason', 'wrong payee', '--operator', 'Jartu (ops)');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`reversed disbursement ${disbursed.referenceId}`);
    expect(text.stdout).toMatch(new RegExp(`user \\${disbursed.phone}:\\s+USD\\s+10\\.00 ->\\s+0\\.00`));
    expect(text.stdout).toMatch(new RegExp(`partner ${disbursed.partnerId}:\\s+USD\\s+89\\.90 ->\\s+99\\.90`));
    expect(text.stdout).toContain('operator: Jartu (ops)');

    const again = await operator('reverse-disbursement', '--reference-id', disbursed.referenceId, '--reason', 'wrong payee', '--json');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error).toContain('already reversed');

    expect((await operator('reverse-disbursement', '--reference-id', disbursed.referenceId)).code).toBe(2);
    expect((await operator('reverse-disbursement', '--reason', 'x')).code).toBe(2);
    expect((await operator('reverse-disbursement', '--reference-id', 'PKC-1-00', '--reason', 'x')).code).toBe(2);
    expect((await operator('reverse-disbursement', '--reference-id', disbursed.referenceId, '--reason', '   ')).code).toBe(2);
    expect((await reversalsOf(disbursed.transferId))).toEqual([expect.objectContaining({ operator: 'Jartu (ops)', reason: 'wrong payee' })]);
  });
});
