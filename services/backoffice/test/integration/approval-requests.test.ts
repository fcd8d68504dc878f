import { randomUUID } from 'node:crypto';
import { createPool, type Pool } from '@pwa/db';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { decisionRefusal } from '../../src/domain/approval-rules';
import { backofficeMigrationDirectories, backofficeSchema } from '../../src/service-paths';
import {
  approvedNotExecuted,
  decideApprovalRequest,
  expireDueApprovalRequests,
  findApprovalRequest,
  insertApprovalRequest,
  markApprovalRequestExecuted,
  type NewApprovalRequest,
} from '../../src/store/approval-request-store';

/**
 * Maker-checker in the database: the conditions that must hold under concurrency (one decision,
 * one execution, never the maker's own) are proven with concurrent statements on separate
 * connections against the real Postgres.
 */
let database: TestDatabase;
let concurrent: Pool;

beforeAll(async () => {
  database = await openTestDatabase({ label: 'backoffice_approvals', schema: backofficeSchema, migrationDirectories: backofficeMigrationDirectories });
  concurrent = createPool({ connectionString: database.databaseUrl, applicationName: 'backoffice-approval-races', schema: backofficeSchema, maxConnections: 12 });
});

afterAll(async () => {
  await concurrent?.end();
  await database?.drop();
});

const maker = randomUUID();
const fundingRequest = (overrides: Partial<NewApprovalRequest> = {}): NewApprovalRequest => ({
  requestId: randomUUID(),
  action: 'partner.fund',
  target: { kind: 'partner', id: randomUUID() },
  parameters: { currency: 'USD', amountMinor: '125050' },
  reason: 'Wire received, bank reference FT-2211',
  makerId: maker,
  lifetimeSeconds: 86_400,
  ...overrides,
});

describe('approval requests', () => {
  test('when a request is made, then it is pending, expires 24 h later by the database clock and names its maker', async () => {
    const stored = await insertApprovalRequest(database.pool, fundingRequest());
    expect(stored).toMatchObject({ status: 'pending', makerId: maker, checkerId: null, executedAt: null, parameters: { currency: 'USD', amountMinor: '125050' } });
    expect(stored.expiresAt.getTime() - stored.requestedAt.getTime()).toBe(86_400_000);
  });

  test('when ten checkers approve the same request at once, then exactly one decision is recorded and it names that checker', async () => {
    const request = await insertApprovalRequest(database.pool, fundingRequest());
    const checkers = Array.from({ length: 10 }, () => randomUUID());
    const decisions = await Promise.all(checkers.map((checkerId) => decideApprovalRequest(concurrent, { requestId: request.requestId, checkerId, outcome: 'approved' })));
    const recorded = decisions.filter((decision) => decision !== undefined);
    expect(recorded).toHaveLength(1);
    const stored = await findApprovalRequest(database.pool, request.requestId);
    expect(stored).toMatchObject({ status: 'approved', checkerId: recorded[0]?.checkerId });
  });

  test('when one checker approves and another rejects at once, then one outcome stands', async () => {
    const request = await insertApprovalRequest(database.pool, fundingRequest());
    const [approved, rejected] = await Promise.all([
      decideApprovalRequest(concurrent, { requestId: request.requestId, checkerId: randomUUID(), outcome: 'approved' }),
      decideApprovalRequest(concurrent, { requestId: request.requestId, checkerId: randomUUID(), outcome: 'rejected', note: 'no wire seen' }),
    ]);
    expect([approved, rejected].filter((decision) => decision !== undefined)).toHaveLength(1);
    expect(['approved', 'rejected']).toContain((await findApprovalRequest(database.pool, request.requestId))?.status);
  });

  test('when the maker approves their own request, then nothing changes, and the database refuses it even when the condition is bypassed', async () => {
    const request = await insertApprovalRequest(database.pool, fundingRequest());
    expect(await decideApprovalRequest(database.pool, { requestId: request.requestId, checkerId: maker, outcome: 'approved' })).toBeUndefined();
    const stored = await findApprovalRequest(database.pool, request.requestId);
    expect(stored?.status).toBe('pending');
    expect(decisionRefusal(stored!, { operatorId: maker, roles: ['checker'] }, new Date())).toBe('own-request');
    await expect(
      database.pool.query(`UPDATE approval_requests SET status = 'approved', checker_id = maker_id, decided_at = now() WHERE id = $1`, [request.requestId]),
    ).rejects.toThrow(/check constraint/);
  });

  test('when a request has expired, then no decision is recorded, the sweep marks it expired once, and it can never execute', async () => {
    const request = await insertApprovalRequest(database.pool, fundingRequest({ lifetimeSeconds: 60 }));
    await database.pool.query(`UPDATE approval_requests SET requested_at = requested_at - interval '2 minutes', expires_at = expires_at - interval '2 minutes' WHERE id = $1`, [request.requestId]);
    expect(await decideApprovalRequest(database.pool, { requestId: request.requestId, checkerId: randomUUID(), outcome: 'approved' })).toBeUndefined();
    const [first, second] = await Promise.all([expireDueApprovalRequests(concurrent, 100), expireDueApprovalRequests(concurrent, 100)]);
    expect([...(first ?? []), ...(second ?? [])].filter((id) => id === request.requestId)).toHaveLength(1);
    const stored = await findApprovalRequest(database.pool, request.requestId);
    expect(stored?.status).toBe('expired');
    expect(decisionRefusal(stored!, { operatorId: randomUUID(), roles: ['checker'] }, new Date())).toBe('expired');
    expect(await markApprovalRequestExecuted(database.pool, request.requestId, { transactionId: 'TXN-0000000000000001' })).toBeUndefined();
  });

  test('when an approval races the expiry sweep, then the request ends either approved or expired, never both', async () => {
    for (let round = 0; round < 10; round += 1) {
      const request = await insertApprovalRequest(database.pool, fundingRequest({ lifetimeSeconds: 60 }));
      // Expiry lands now: the sweep and the approval compare against the same database clock.
      await database.pool.query(`UPDATE approval_requests SET expires_at = clock_timestamp() + interval '5 milliseconds' WHERE id = $1`, [request.requestId]);
      const [decided, expired] = await Promise.all([
        decideApprovalRequest(concurrent, { requestId: request.requestId, checkerId: randomUUID(), outcome: 'approved' }),
        new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => expireDueApprovalRequests(concurrent, 100)),
      ]);
      const stored = await findApprovalRequest(database.pool, request.requestId);
      const expiredIt = expired.includes(request.requestId);
      expect(decided !== undefined && expiredIt).toBe(false);
      expect(stored?.status).toBe(decided ? 'approved' : expiredIt ? 'expired' : 'pending');
    }
  });

  test('when an approved request is executed by five workers at once (retries, a restart), then exactly one records the execution', async () => {
    const request = await insertApprovalRequest(database.pool, fundingRequest());
    await decideApprovalRequest(database.pool, { requestId: request.requestId, checkerId: randomUUID(), outcome: 'approved' });
    expect((await approvedNotExecuted(database.pool, 1000)).map((pending) => pending.requestId)).toContain(request.requestId);
    const results = await Promise.all(Array.from({ length: 5 }, (_, index) => markApprovalRequestExecuted(concurrent, request.requestId, { transactionId: `TXN-${String(index).padStart(16, '0')}` })));
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    const stored = await findApprovalRequest(database.pool, request.requestId);
    expect(stored?.status).toBe('executed');
    expect((await approvedNotExecuted(database.pool, 1000)).map((pending) => pending.requestId)).not.toContain(request.requestId);
  });

  test('when a rejected request is executed, then nothing is recorded', async () => {
    const request = await insertApprovalRequest(database.pool, fundingRequest());
    await decideApprovalRequest(database.pool, { requestId: request.requestId, checkerId: randomUUID(), outcome: 'rejected', note: 'duplicate' });
    expect(await markApprovalRequestExecuted(database.pool, request.requestId, { transactionId: 'TXN-0000000000000002' })).toBeUndefined();
    expect((await findApprovalRequest(database.pool, request.requestId))?.status).toBe('rejected');
  });

  test('when a request names an action outside the four-eyes list or no reason, then the database refuses it', async () => {
    await expect(insertApprovalRequest(database.pool, fundingRequest({ action: 'partner.delete' as never }))).rejects.toThrow(/check constraint/);
    await expect(insertApprovalRequest(database.pool, fundingRequest({ reason: '' }))).rejects.toThrow(/check constraint/);
  });
});
