import { verifyAuditChain } from '@pwa/audit';
import { startWalletHarness, type WalletHarness } from '../../../wallet/test/integration/wallet-harness';
import { checkLedger } from '../../../wallet/src/use-cases/check-ledger';
import { executeApprovedBacklog, executeApprovedRequest } from '../../src/use-cases/execute-approved-request';
import { findApprovalRequest } from '../../src/store/approval-request-store';
import { decideFourEyesChange, requestFourEyesChange } from '../../src/use-cases/four-eyes-requests';
import { createCapturedLogger } from '../../../../test/support/captured-logger';
import { adminClientsFor, startConsoleStand, type ConsoleStand, type SignedInOperator } from '../support/console-stand';

/**
 * Money with four eyes, end to end across the two services in-process: the back-office on its
 * console API and the real wallet on its admin route, each on its own database of the real
 * Postgres. The partner's balance moves only when a second person approves, exactly once.
 */
let wallet: WalletHarness;
let stand: ConsoleStand;
let maker: SignedInOperator;
let checker: SignedInOperator;
let otherChecker: SignedInOperator;

beforeAll(async () => {
  wallet = await startWalletHarness();
  stand = await startConsoleStand('backoffice_funding', { walletUrl: wallet.baseUrl, sweepIntervalMs: 60_000 });
  maker = await stand.signedInOperator('Funding Maker', ['maker']);
  checker = await stand.signedInOperator('Funding Checker', ['checker']);
  otherChecker = await stand.signedInOperator('Second Checker', ['checker']);
});

afterAll(async () => {
  await stand?.stop();
  await wallet?.stop();
});

async function partnerBalanceMinor(partnerId: string, currency: 'LRD' | 'USD'): Promise<bigint> {
  const rows = await wallet.sql.query<{ balance_minor: string }>(`SELECT balance_minor FROM ledger_accounts WHERE kind = 'partner' AND partner_id = $1 AND currency = $2`, [partnerId, currency]);
  return BigInt(rows.rows[0]?.balance_minor ?? '0');
}

const ask = (parameters: Record<string, string>, partnerId: string, action = 'partner.fund') =>
  stand.call('POST', '/api/v1/approval-requests', { cookie: maker.cookie, csrf: maker.csrf, body: { action, target: { kind: 'partner', id: partnerId }, parameters, reason: 'Ecobank transfer ref 88123' } });
const approve = (person: SignedInOperator, requestId: string) => stand.call('POST', `/api/v1/approval-requests/${requestId}/approve`, { cookie: person.cookie, csrf: person.csrf, body: {} });

describe('funding with four eyes', () => {
  test('when a maker asks for a funding, then nothing moves until a checker approves, and then the balance moves once, to the cent', async () => {
    const partnerId = await stand.newPartnerId();
    const asked = await ask({ currency: 'USD', amountMinor: '1250050' }, partnerId);
    expect(asked.status).toBe(201);
    expect(await partnerBalanceMinor(partnerId, 'USD')).toBe(0n);
    const requestId = String(asked.body.data?.requestId);

    const [first, second] = await Promise.all([approve(checker, requestId), approve(otherChecker, requestId)]);
    const approved = first.status === 200 ? first : second;
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect(approved.body.data).toMatchObject({ status: 'executed', executionResult: { replayed: false, transactionId: expect.stringMatching(/^TXN-/), partnerBalanceMinor: '1250050' } });
    expect(await partnerBalanceMinor(partnerId, 'USD')).toBe(1_250_050n);

    // Executing again (a retry, a second executor, a restart) moves nothing more.
    const logger = createCapturedLogger('funding-test').logger;
    const client = adminClientsFor({ walletUrl: wallet.baseUrl, authUrl: stand.auth.baseUrl }, logger);
    try {
      expect(await executeApprovedRequest(stand.database.pool, client, requestId)).toEqual({ kind: 'not-approved' });
      const request = await findApprovalRequest(stand.database.pool, requestId);
      if (!request) throw new Error('the request is gone');
      const change = { request: { ...request, status: 'approved' as const }, actor: { operatorId: checker.operatorId, displayName: 'Funding Checker' }, approval: { requestId, makerId: maker.operatorId, checkerId: checker.operatorId } };
      expect(await client.executors['partner.fund'](change, null)).toMatchObject({ kind: 'done', result: { replayed: true } });
    } finally {
      client.shutdown();
    }
    expect(await partnerBalanceMinor(partnerId, 'USD')).toBe(1_250_050n);
    expect(await checkLedger(wallet.pool)).toMatchObject({ ok: true });
  });

  test('when a correction above the partner’s balance is approved, then the wallet refuses it, nothing moves and the request ends failed', async () => {
    const partnerId = await stand.newPartnerId();
    const funded = await ask({ currency: 'LRD', amountMinor: '500000' }, partnerId);
    await approve(checker, String(funded.body.data?.requestId));
    const correction = await ask({ currency: 'LRD', amountMinor: '700000', direction: 'debit', correctsRequestId: String(funded.body.data?.requestId) }, partnerId, 'partner.funding.correct');
    expect(correction.status).toBe(201);
    const decided = await approve(checker, String(correction.body.data?.requestId));
    expect(decided.body.data).toMatchObject({ status: 'failed', executionResult: { code: 'PKC_4002' } });
    expect(await partnerBalanceMinor(partnerId, 'LRD')).toBe(500_000n);

    const fitting = await ask({ currency: 'LRD', amountMinor: '200000', direction: 'debit', correctsRequestId: String(funded.body.data?.requestId) }, partnerId, 'partner.funding.correct');
    expect((await approve(otherChecker, String(fitting.body.data?.requestId))).body.data).toMatchObject({ status: 'executed' });
    expect(await partnerBalanceMinor(partnerId, 'LRD')).toBe(300_000n);
    expect(await checkLedger(wallet.pool)).toMatchObject({ ok: true });
    expect(await verifyAuditChain(stand.database.pool)).toMatchObject({ ok: true });
  });

  test('when the back-office stopped between the approval and the call, then two sweeps after the restart execute it once', async () => {
    const partnerId = await stand.newPartnerId();
    const origin = { address: '10.0.0.9', userAgent: 'jest', requestId: null };
    const client = adminClientsFor({ walletUrl: wallet.baseUrl, authUrl: stand.auth.baseUrl }, createCapturedLogger('sweep-test').logger);
    // The approval as it stands in the database when the process died before calling the wallet.
    const requested = await requestFourEyesChange(stand.database.pool, maker.operatorId, { action: 'partner.fund', target: { kind: 'partner', id: partnerId }, parameters: { currency: 'USD', amountMinor: '99999' }, reason: 'Wire FT-1' }, origin, client.targets);
    if (requested.kind !== 'requested') throw new Error(requested.reason);
    expect(await decideFourEyesChange(stand.database.pool, checker.operatorId, { requestId: requested.request.requestId, outcome: 'approved' }, origin)).toMatchObject({ kind: 'decided' });
    expect(await partnerBalanceMinor(partnerId, 'USD')).toBe(0n);

    const failures: unknown[] = [];
    try {
      await Promise.all([executeApprovedBacklog(stand.database.pool, client, 100, (_id, error) => failures.push(error)), executeApprovedBacklog(stand.database.pool, client, 100, (_id, error) => failures.push(error))]);
    } finally {
      client.shutdown();
    }
    expect(failures).toEqual([]);
    expect(await partnerBalanceMinor(partnerId, 'USD')).toBe(99_999n);
    const executions = await stand.database.pool.query(`SELECT 1 FROM audit_log WHERE action = 'approval_request.execute' AND target->>'id' = $1`, [requested.request.requestId]);
    expect(executions.rowCount).toBe(1);
    expect(await checkLedger(wallet.pool)).toMatchObject({ ok: true });
  });
});
