import { verifyAuditChain } from '@pwa/audit';
import type { Pool } from '@pwa/db';
import { startAuthHarness, type AuthHarness } from '../../../auth/test/integration/auth-harness';
import { startQuotesHarness, type QuotesHarness } from '../../../quotes/test/integration/quotes-harness';
import { checkLedger } from '../../../wallet/src/use-cases/check-ledger';
import {
  balanceOfPartner,
  balanceOfWallet,
  createTestPartner,
  createTestUser,
  getJson,
  postJson,
  startWalletHarness,
  transferBody,
  type WalletHarness,
} from '../../../wallet/test/integration/wallet-harness';
import { createCapturedLogger } from '../../../../test/support/captured-logger';
import { findApprovalRequest } from '../../src/store/approval-request-store';
import { executeApprovedBacklog, executeApprovedRequest } from '../../src/use-cases/execute-approved-request';
import { decideFourEyesChange, expireDueRequests, requestFourEyesChange } from '../../src/use-cases/four-eyes-requests';
import type { AdminClients } from '../../src/wiring/admin-clients';
import { adminClientsFor, startConsoleStand, type ConsoleStand, type SignedInOperator } from '../support/console-stand';

/**
 * Every four-eyes action besides funding, end to end across the services in-process (decision
 * 0069): the back-office on its console API, and the real wallet, quotes and auth on their admin
 * routes, each on its own database of the real Postgres. A change happens only when a second
 * person approves, exactly once, recorded on the owner's side with the person and the approval.
 */
let auth: AuthHarness;
let wallet: WalletHarness;
let quotes: QuotesHarness;
let stand: ConsoleStand;
let owners: AdminClients;
let maker: SignedInOperator;
let checker: SignedInOperator;
let otherChecker: SignedInOperator;

beforeAll(async () => {
  auth = await startAuthHarness();
  wallet = await startWalletHarness();
  quotes = await startQuotesHarness();
  stand = await startConsoleStand('backoffice_actions', { walletUrl: wallet.baseUrl, quotesUrl: quotes.baseUrl, auth, sweepIntervalMs: 60_000 });
  owners = adminClientsFor({ walletUrl: wallet.baseUrl, authUrl: auth.baseUrl, quotesUrl: quotes.baseUrl }, createCapturedLogger('actions-owners').logger);
  maker = await stand.signedInOperator('Action Maker', ['maker']);
  checker = await stand.signedInOperator('Action Checker', ['checker']);
  otherChecker = await stand.signedInOperator('Second Checker', ['checker']);
});

afterAll(async () => {
  owners?.shutdown();
  await stand?.stop();
  await quotes?.stop();
  await wallet?.stop();
  await auth?.stop();
});

const origin = { address: '10.0.0.7', userAgent: 'jest', requestId: null };

interface Change {
  action: string;
  target: { kind: string; id: string };
  parameters: Record<string, unknown>;
}

async function ask(change: Change): Promise<string> {
  const asked = await stand.call('POST', '/api/v1/approval-requests', { cookie: maker.cookie, csrf: maker.csrf, body: { ...change, reason: 'Ticket OPS-4471' } });
  expect(asked.status).toBe(201);
  return String(asked.body.data?.requestId);
}

const decide = (person: SignedInOperator, requestId: string, verb: 'approve' | 'reject') =>
  stand.call('POST', `/api/v1/approval-requests/${requestId}/${verb}`, { cookie: person.cookie, csrf: person.csrf, body: {} });

/** Two checkers approve at once: one decision stands and executes, the other is refused. */
async function approvedByTwoAtOnce(requestId: string): Promise<Record<string, unknown>> {
  const [first, second] = await Promise.all([decide(checker, requestId, 'approve'), decide(otherChecker, requestId, 'approve')]);
  expect([first.status, second.status].sort()).toEqual([200, 409]);
  return (first.status === 200 ? first : second).body.data ?? {};
}

/** The same approved request executed again, as a retry or a second executor would: the owner answers replayed. */
async function executedAgain(requestId: string): Promise<unknown> {
  expect(await executeApprovedRequest(stand.database.pool, owners, requestId)).toEqual({ kind: 'not-approved' });
  const request = await findApprovalRequest(stand.database.pool, requestId);
  if (!request?.checkerId) throw new Error('the request has no checker');
  return owners.executors[request.action](
    { request, actor: { operatorId: request.checkerId, displayName: 'Retry' }, approval: { requestId, makerId: request.makerId, checkerId: request.checkerId } },
    null,
  );
}

async function executionAudits(requestId: string): Promise<{ outcome: string; before: any; after: any }[]> {
  const rows = await stand.database.pool.query<{ outcome: string; before: any; after: any }>(
    `SELECT outcome, before, after FROM audit_log WHERE action = 'approval_request.execute' AND target->>'id' = $1`,
    [requestId],
  );
  return rows.rows;
}

async function ownerChanges(pool: Pool, requestId: string): Promise<Record<string, unknown>[]> {
  const rows = await pool.query(`SELECT action, target, operator_id, operator_name, maker_id, checker_id, reason FROM operator_changes WHERE request_id = $1`, [requestId]);
  return rows.rows;
}

async function partnerSettings(partnerId: string): Promise<{ status: string; permissions: string[]; rate_limit_per_minute: number | null }> {
  const rows = await auth.service.pool.query<{ status: string; permissions: string[]; rate_limit_per_minute: number | null }>(
    `SELECT status, permissions, rate_limit_per_minute FROM partners WHERE partner_id = $1`,
    [partnerId],
  );
  const row = rows.rows[0];
  if (!row) throw new Error(`no partner ${partnerId}`);
  return row;
}

async function partnerEventCount(partnerId: string): Promise<number> {
  const rows = await auth.service.pool.query<{ count: string }>(`SELECT count(*) FROM outbox WHERE routing_key = 'partner.updated' AND payload->'data'->>'partnerId' = $1`, [partnerId]);
  return Number(rows.rows[0]?.count);
}

async function feeSchedule(type: string, currency: string): Promise<{ minimum_fee_minor: string; maximum_fee_minor: string; revision: number }> {
  const rows = await quotes.database.query<{ minimum_fee_minor: string; maximum_fee_minor: string; revision: number }>(
    `SELECT minimum_fee_minor::text, maximum_fee_minor::text, revision FROM fee_schedules WHERE quote_type = $1 AND currency = $2`,
    [type, currency],
  );
  const row = rows.rows[0];
  if (!row) throw new Error(`no fee schedule ${type} ${currency}`);
  return row;
}

async function tierLimit(tier: string, type: string, currency: string): Promise<{ per_transaction_max_minor: string; per_day_count_max: number }> {
  const rows = await wallet.sql.query<{ per_transaction_max_minor: string; per_day_count_max: number }>(
    `SELECT per_transaction_max_minor::text, per_day_count_max FROM tier_limits WHERE tier = $1 AND transaction_type = $2 AND currency = $3`,
    [tier, type, currency],
  );
  const row = rows.rows[0];
  if (!row) throw new Error(`no limits for ${tier} ${type} ${currency}`);
  return row;
}

let disbursementCounter = 0;

/** A completed disbursement of a funded partner to a user, posted through the wallet's internal API as the disbursements service does. */
async function disburse(amountMinor: bigint, feeMinor: bigint): Promise<{ phone: string; partnerId: string; referenceId: string; transactionId: string }> {
  const user = await createTestUser(wallet, { balances: { USD: 200n } });
  const partnerId = await createTestPartner(wallet, { USD: 10_000n });
  disbursementCounter += 1;
  const referenceId = `PKD-1718000000000-${disbursementCounter.toString(16).toUpperCase().padStart(24, 'B')}`;
  const body = { ...transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: String(amountMinor), feeMinor: String(feeMinor) }), referenceId, externalId: `payout-${disbursementCounter}` };
  const answer = await postJson(`${wallet.baseUrl}/internal/transfers`, body);
  expect(answer.status).toBe(200);
  return { phone: user.phone, partnerId, referenceId, transactionId: answer.body.transactionId };
}

describe('a disbursement reversal with four eyes', () => {
  test('when two checkers approve a reversal at once, then it posts once, to the cent, the partner sees it, and executing it again moves nothing', async () => {
    const disbursed = await disburse(1_050n, 35n);
    expect(await balanceOfWallet(wallet, disbursed.phone, 'USD')).toBe(1_250n);
    expect(await balanceOfPartner(wallet, disbursed.partnerId, 'USD')).toBe(8_915n);
    const requestId = await ask({ action: 'disbursement.reverse', target: { kind: 'disbursement', id: disbursed.referenceId }, parameters: {} });
    expect(await balanceOfWallet(wallet, disbursed.phone, 'USD')).toBe(1_250n);

    const approved = await approvedByTwoAtOnce(requestId);
    expect(approved).toMatchObject({ status: 'executed', executionResult: { replayed: false, reversalTransactionId: expect.stringMatching(/^TXN-/), amountMinor: '1050', partnerBalanceMinor: '9965' } });
    expect(await balanceOfWallet(wallet, disbursed.phone, 'USD')).toBe(200n);
    expect(await balanceOfPartner(wallet, disbursed.partnerId, 'USD')).toBe(9_965n);

    expect(await executedAgain(requestId)).toMatchObject({ kind: 'done', result: { replayed: true, partnerBalanceMinor: '9965' } });
    expect(await balanceOfPartner(wallet, disbursed.partnerId, 'USD')).toBe(9_965n);

    // Recorded on the wallet's side: the reversal's transfer id is the request id, with the person and the approval.
    const recorded = await wallet.sql.query(`SELECT reversal_transfer_id, operator, operator_id, maker_id, checker_id, reason FROM operator_reversals WHERE reversal_transfer_id = $1`, [requestId]);
    const decidedBy = String(approved.checkerId);
    expect(recorded.rows).toEqual([{ reversal_transfer_id: requestId, operator: decidedBy === checker.operatorId ? 'Action Checker' : 'Second Checker', operator_id: decidedBy, maker_id: maker.operatorId, checker_id: decidedBy, reason: 'Ticket OPS-4471' }]);
    // The partner is told once (decision 0063): one wallet.disbursement_reversed in the outbox, and the statement's reversal line.
    const events = await wallet.sql.query(`SELECT 1 FROM outbox WHERE routing_key = 'wallet.disbursement_reversed' AND payload->'data'->>'referenceId' = $1`, [disbursed.referenceId]);
    expect(events.rowCount).toBe(1);
    const hourMs = 60 * 60 * 1000;
    const query = new URLSearchParams({ currency: 'USD', from: new Date(Date.now() - hourMs).toISOString(), to: new Date(Date.now() + hourMs).toISOString() });
    const statement = (await getJson(`${wallet.baseUrl}/partner/v1/statement?${query.toString()}`, { 'x-partner-id': disbursed.partnerId })).body.data;
    expect(statement.items.filter((item: { type: string }) => item.type === 'reversal')).toEqual([expect.objectContaining({ amount: 10.5, referenceId: disbursed.referenceId, balanceAfter: 99.65 })]);
    expect(await executionAudits(requestId)).toEqual([
      { outcome: 'done', before: expect.objectContaining({ status: 'approved', action: 'disbursement.reverse' }), after: expect.objectContaining({ status: 'executed', replayed: false }) },
    ]);
    expect(await checkLedger(wallet.pool)).toMatchObject({ ok: true });
  });

  test('when a second request reverses a disbursement reversed since it was asked, then it ends failed and nothing moves; asked after, or for one the wallet does not know, it is refused at once', async () => {
    const disbursed = await disburse(500n, 0n);
    const first = await ask({ action: 'disbursement.reverse', target: { kind: 'disbursement', id: disbursed.referenceId }, parameters: {} });
    const second = await ask({ action: 'disbursement.reverse', target: { kind: 'disbursement', id: disbursed.referenceId }, parameters: {} });
    expect((await decide(checker, first, 'approve')).body.data).toMatchObject({ status: 'executed' });
    const partnerAfterFirstMinor = await balanceOfPartner(wallet, disbursed.partnerId, 'USD');
    expect((await decide(checker, second, 'approve')).body.data).toMatchObject({ status: 'failed', executionResult: { code: 'PKC_6004' } });
    expect(await balanceOfPartner(wallet, disbursed.partnerId, 'USD')).toBe(partnerAfterFirstMinor);

    // Asked again now, the wallet says at request time that it was reversed: no checker is asked.
    const third = await stand.call('POST', '/api/v1/approval-requests', { cookie: maker.cookie, csrf: maker.csrf, body: { action: 'disbursement.reverse', target: { kind: 'disbursement', id: disbursed.referenceId }, parameters: {}, reason: 'again' } });
    expect(third).toMatchObject({ status: 409, body: { code: 'CON_4009' } });
    const unknown = await stand.call('POST', '/api/v1/approval-requests', {
      cookie: maker.cookie,
      csrf: maker.csrf,
      body: { action: 'disbursement.reverse', target: { kind: 'disbursement', id: 'PKD-1718000000000-UNKNOWN0000000000000000' }, parameters: {}, reason: 'typo' },
    });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'CON_4007' } });
    expect((await executionAudits(second))[0]).toMatchObject({ outcome: 'refused', after: { status: 'failed', code: 'PKC_6004' } });
    expect(await checkLedger(wallet.pool)).toMatchObject({ ok: true });
  });
});

describe('settings changes with four eyes', () => {
  test('when two checkers approve a fee schedule change at once, then quotes writes one revision with who and which approval, and a retry changes nothing', async () => {
    const before = await feeSchedule('collection', 'USD');
    const requestId = await ask({ action: 'fee_schedule.set', target: { kind: 'fee_schedule', id: 'collection:USD' }, parameters: { minimumFeeMinor: '15', maximumFeeMinor: '2500' } });
    expect(await feeSchedule('collection', 'USD')).toEqual(before);
    expect(await approvedByTwoAtOnce(requestId)).toMatchObject({ status: 'executed', executionResult: { replayed: false } });
    expect(await feeSchedule('collection', 'USD')).toEqual({ minimum_fee_minor: '15', maximum_fee_minor: '2500', revision: before.revision + 1 });
    expect(await executedAgain(requestId)).toMatchObject({ kind: 'done', result: { replayed: true }, after: { minimumFeeMinor: '15', revision: before.revision + 1 } });
    expect(await feeSchedule('collection', 'USD')).toMatchObject({ revision: before.revision + 1 });
    expect(await ownerChanges(quotes.database, requestId)).toEqual([expect.objectContaining({ action: 'fee_schedule.set', target: 'collection:USD', maker_id: maker.operatorId, reason: 'Ticket OPS-4471' })]);
    expect(await executionAudits(requestId)).toEqual([
      {
        outcome: 'done',
        before: expect.objectContaining({ values: expect.objectContaining({ minimumFeeMinor: before.minimum_fee_minor, revision: before.revision }) }),
        after: expect.objectContaining({ status: 'executed', values: expect.objectContaining({ minimumFeeMinor: '15', maximumFeeMinor: '2500' }) }),
      },
    ]);
  });

  test('when a fee schedule the rules refuse is approved, then quotes refuses it, the request ends failed and the schedule stays', async () => {
    const before = await feeSchedule('disbursement', 'USD');
    const requestId = await ask({ action: 'fee_schedule.set', target: { kind: 'fee_schedule', id: 'disbursement:USD' }, parameters: { minimumFeeMinor: '5000', maximumFeeMinor: '100' } });
    expect((await decide(checker, requestId, 'approve')).body.data).toMatchObject({ status: 'failed', executionResult: { code: 'PKC_2008' } });
    expect(await feeSchedule('disbursement', 'USD')).toEqual(before);
  });

  test('when two checkers approve a tier limit change at once, then the wallet changes it once with who and which approval, and a retry changes nothing', async () => {
    const requestId = await ask({ action: 'tier_limit.set', target: { kind: 'tier_limit', id: 'Gold:collection:USD' }, parameters: { perTransactionMinor: '123400', perDayCount: 77 } });
    expect(await approvedByTwoAtOnce(requestId)).toMatchObject({ status: 'executed', executionResult: { replayed: false } });
    expect(await tierLimit('Gold', 'collection', 'USD')).toEqual({ per_transaction_max_minor: '123400', per_day_count_max: 77 });
    expect(await executedAgain(requestId)).toMatchObject({ kind: 'done', result: { replayed: true }, after: { perTransactionMaxMinor: '123400', perDayCountMax: 77 } });
    expect(await ownerChanges(wallet.sql, requestId)).toEqual([expect.objectContaining({ action: 'tier_limit.set', target: 'Gold:collection:USD', maker_id: maker.operatorId })]);
  });

  test.each([
    ['partner.status.set', { status: 'suspended' }, { status: 'suspended' }],
    ['partner.permissions.set', { permissions: ['collection'] }, { permissions: ['collection'] }],
    ['partner.rate_limit.set', { rateLimitPerMinute: 90 }, { rate_limit_per_minute: 90 }],
  ])('when two checkers approve %s at once, then auth changes the partner once, publishes one partner.updated and records who and which approval', async (action, parameters, expected) => {
    const partnerId = await stand.newPartnerId(`Partner for ${action}`);
    const eventsBefore = await partnerEventCount(partnerId);
    const requestId = await ask({ action, target: { kind: 'partner', id: partnerId }, parameters });
    expect(await partnerSettings(partnerId)).toMatchObject({ status: 'active', permissions: ['collection', 'disbursement'], rate_limit_per_minute: null });
    expect(await approvedByTwoAtOnce(requestId)).toMatchObject({ status: 'executed', executionResult: { replayed: false } });
    expect(await partnerSettings(partnerId)).toMatchObject(expected);
    expect(await executedAgain(requestId)).toMatchObject({ kind: 'done', result: { replayed: true } });
    expect(await partnerEventCount(partnerId)).toBe(eventsBefore + 1);
    expect(await ownerChanges(auth.service.pool, requestId)).toEqual([expect.objectContaining({ action, target: partnerId, maker_id: maker.operatorId, reason: 'Ticket OPS-4471' })]);
    expect((await executionAudits(requestId))[0]).toMatchObject({ outcome: 'done', before: { values: { status: 'active' } }, after: { status: 'executed' } });
  });
});

describe('rejected, expired and interrupted requests', () => {
  test('when each action is rejected or expires, then no owner changes anything and the sweep executes none of them', async () => {
    const partnerId = await stand.newPartnerId('Untouched Partner');
    const disbursed = await disburse(700n, 0n);
    const feesBefore = await feeSchedule('collection', 'LRD');
    const limitsBefore = await tierLimit('Silver', 'disbursement', 'LRD');
    const changes: Change[] = [
      { action: 'disbursement.reverse', target: { kind: 'disbursement', id: disbursed.referenceId }, parameters: {} },
      { action: 'fee_schedule.set', target: { kind: 'fee_schedule', id: 'collection:LRD' }, parameters: { minimumFeeMinor: '1' } },
      { action: 'tier_limit.set', target: { kind: 'tier_limit', id: 'Silver:disbursement:LRD' }, parameters: { perDayCount: 3 } },
      { action: 'partner.status.set', target: { kind: 'partner', id: partnerId }, parameters: { status: 'inactive' } },
      { action: 'partner.permissions.set', target: { kind: 'partner', id: partnerId }, parameters: { permissions: [] } },
      { action: 'partner.rate_limit.set', target: { kind: 'partner', id: partnerId }, parameters: { rateLimitPerMinute: 1 } },
    ];
    for (const change of changes) {
      expect((await decide(checker, await ask(change), 'reject')).body.data).toMatchObject({ status: 'rejected' });
      const expiring = await ask(change);
      await stand.database.pool.query(`UPDATE approval_requests SET requested_at = requested_at - interval '2 days', expires_at = now() - interval '1 second' WHERE id = $1`, [expiring]);
      expect(await decide(checker, expiring, 'approve')).toMatchObject({ status: 409, body: { code: 'CON_4003' } });
    }
    await expireDueRequests(stand.database.pool);
    expect(await executeApprovedBacklog(stand.database.pool, owners, 100, () => undefined)).toBe(0);
    expect(await balanceOfWallet(wallet, disbursed.phone, 'USD')).toBe(900n);
    expect(await feeSchedule('collection', 'LRD')).toEqual(feesBefore);
    expect(await tierLimit('Silver', 'disbursement', 'LRD')).toEqual(limitsBefore);
    expect(await partnerSettings(partnerId)).toMatchObject({ status: 'active', permissions: ['collection', 'disbursement'], rate_limit_per_minute: null });
    expect(await partnerEventCount(partnerId)).toBe(0);
  });

  test('when each action is approved while its owner is down, then it stays approved, and two sweeps after the owner is back execute it once', async () => {
    const downStand = await startConsoleStand('backoffice_owners_down', { auth, sweepIntervalMs: 60_000 });
    try {
      const downMaker = await downStand.signedInOperator('Down Maker', ['maker']);
      const downChecker = await downStand.signedInOperator('Down Checker', ['checker']);
      const partnerId = await downStand.newPartnerId('Swept Partner');
      const disbursed = await disburse(300n, 0n);
      const changes: Change[] = [
        { action: 'fee_schedule.set', target: { kind: 'fee_schedule', id: 'disbursement:LRD' }, parameters: { maximumFeeMinor: '999999' } },
        { action: 'tier_limit.set', target: { kind: 'tier_limit', id: 'Basic:collection:USD' }, parameters: { perDayCount: 11 } },
      ];
      const requestIds: string[] = [];
      for (const change of changes) {
        const asked = await downStand.call('POST', '/api/v1/approval-requests', { cookie: downMaker.cookie, csrf: downMaker.csrf, body: { ...change, reason: 'Owner outage drill' } });
        const requestId = String(asked.body.data?.requestId);
        const approved = await downStand.call('POST', `/api/v1/approval-requests/${requestId}/approve`, { cookie: downChecker.cookie, csrf: downChecker.csrf, body: {} });
        expect(approved).toMatchObject({ status: 200, body: { data: { status: 'approved', executedAt: null } } });
        requestIds.push(requestId);
      }
      // The reversal and auth's action: the back-office stopped between the approval and the call (decided, never executed).
      const reversalRequest = await requestFourEyesChange(downStand.database.pool, downMaker.operatorId, { action: 'disbursement.reverse', target: { kind: 'disbursement', id: disbursed.referenceId }, parameters: {}, reason: 'Crash drill' }, origin, owners.targets);
      if (reversalRequest.kind !== 'requested') throw new Error(reversalRequest.reason);
      expect(await decideFourEyesChange(downStand.database.pool, downChecker.operatorId, { requestId: reversalRequest.request.requestId, outcome: 'approved' }, origin)).toMatchObject({ kind: 'decided' });
      requestIds.push(reversalRequest.request.requestId);
      const statusRequest = await requestFourEyesChange(downStand.database.pool, downMaker.operatorId, { action: 'partner.status.set', target: { kind: 'partner', id: partnerId }, parameters: { status: 'suspended' }, reason: 'Crash drill' }, origin, owners.targets);
      if (statusRequest.kind !== 'requested') throw new Error(statusRequest.reason);
      expect(await decideFourEyesChange(downStand.database.pool, downChecker.operatorId, { requestId: statusRequest.request.requestId, outcome: 'approved' }, origin)).toMatchObject({ kind: 'decided' });
      requestIds.push(statusRequest.request.requestId);
      expect(await partnerSettings(partnerId)).toMatchObject({ status: 'active' });
      expect(await balanceOfWallet(wallet, disbursed.phone, 'USD')).toBe(500n);

      const failures: unknown[] = [];
      const counts = await Promise.all([
        executeApprovedBacklog(downStand.database.pool, owners, 100, (_id, error) => failures.push(error)),
        executeApprovedBacklog(downStand.database.pool, owners, 100, (_id, error) => failures.push(error)),
      ]);
      expect(failures).toEqual([]);
      expect(counts[0] + counts[1]).toBe(4);
      for (const requestId of requestIds) {
        expect(await findApprovalRequest(downStand.database.pool, requestId)).toMatchObject({ status: 'executed' });
        const executions = await downStand.database.pool.query(`SELECT 1 FROM audit_log WHERE action = 'approval_request.execute' AND target->>'id' = $1`, [requestId]);
        expect(executions.rowCount).toBe(1);
      }
      expect(await balanceOfWallet(wallet, disbursed.phone, 'USD')).toBe(200n);
      expect(await feeSchedule('disbursement', 'LRD')).toMatchObject({ maximum_fee_minor: '999999' });
      expect(await tierLimit('Basic', 'collection', 'USD')).toMatchObject({ per_day_count_max: 11 });
      expect(await partnerSettings(partnerId)).toMatchObject({ status: 'suspended' });
      expect(await partnerEventCount(partnerId)).toBe(1);
      expect(await verifyAuditChain(downStand.database.pool)).toMatchObject({ ok: true });
      expect(await checkLedger(wallet.pool)).toMatchObject({ ok: true });
    } finally {
      await downStand.stop();
    }
  });
});

describe('the owners refuse an admin change without the person and the approval', () => {
  const actor = { operatorId: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', displayName: 'Checker Kollie' };
  const requestId = '5a0e3c1d-7b2f-4e6a-9c8d-1f2e3d4c5b6a';
  const approval = { requestId, makerId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', checkerId: actor.operatorId };
  const routes = (): [string, string, Record<string, unknown>][] => [
    ['wallet reversal', `${wallet.baseUrl}/internal/admin/disbursement-reversals`, { requestId, referenceId: 'PKD-1718000000000-0000000000000000000000AA', reason: 'r' }],
    ['wallet tier limit', `${wallet.baseUrl}/internal/admin/tier-limits`, { requestId, tier: 'Gold', transactionType: 'collection', currency: 'USD', limits: { perDayCountMax: 5 }, reason: 'r' }],
    ['quotes fee schedule', `${quotes.baseUrl}/internal/admin/fee-schedules`, { requestId, type: 'collection', currency: 'USD', minimumFeeMinor: '1', reason: 'r' }],
    ['auth partner change', `${auth.baseUrl}/internal/admin/partner-changes`, { requestId, partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d', change: { status: 'suspended' }, reason: 'r' }],
  ];

  test('when a body has no actor or no approval, then each owner answers 400 PKC_2008; when the maker is the checker, 403 PKC_6005; nothing changes', async () => {
    const feesBefore = await feeSchedule('collection', 'USD');
    const limitsBefore = await tierLimit('Gold', 'collection', 'USD');
    for (const [, url, body] of routes()) {
      expect(await postJson(url, body)).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
      expect(await postJson(url, { ...body, actor })).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
      expect(await postJson(url, { ...body, approval })).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
      expect(await postJson(url, { ...body, actor, approval: { ...approval, makerId: actor.operatorId } })).toMatchObject({ status: 403, body: { code: 'PKC_6005' } });
      expect(await postJson(url, { ...body, actor: { ...actor, operatorId: approval.makerId }, approval })).toMatchObject({ status: 403, body: { code: 'PKC_6005' } });
    }
    expect(await feeSchedule('collection', 'USD')).toEqual(feesBefore);
    expect(await tierLimit('Gold', 'collection', 'USD')).toEqual(limitsBefore);
    for (const pool of [quotes.database, wallet.sql, auth.service.pool]) expect(await ownerChanges(pool, requestId)).toEqual([]);
  });

  test('when a request id is sent again with a different change, then the owner answers 409 PKC_6001 and keeps the first', async () => {
    const partnerId = await stand.newPartnerId('Conflict Partner');
    const freshId = '0d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a';
    const body = { requestId: freshId, partnerId, change: { rateLimitPerMinute: 40 }, reason: 'r', actor, approval: { ...approval, requestId: freshId } };
    expect(await postJson(`${auth.baseUrl}/internal/admin/partner-changes`, body)).toMatchObject({ status: 200, body: { replayed: false, after: { rateLimitPerMinute: 40 } } });
    expect(await postJson(`${auth.baseUrl}/internal/admin/partner-changes`, { ...body, change: { rateLimitPerMinute: 41 } })).toMatchObject({ status: 409, body: { code: 'PKC_6001' } });
    expect(await postJson(`${auth.baseUrl}/internal/admin/partner-changes`, { ...body, partnerId: requestId })).toMatchObject({ status: 409, body: { code: 'PKC_6001' } });
    expect(await partnerSettings(partnerId)).toMatchObject({ rate_limit_per_minute: 40 });
    const unknownId = '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b';
    expect(await postJson(`${auth.baseUrl}/internal/admin/partner-changes`, { ...body, requestId: unknownId, partnerId: requestId, approval: { ...approval, requestId: unknownId } })).toMatchObject({ status: 404, body: { code: 'PKC_6002' } });
  });
});
