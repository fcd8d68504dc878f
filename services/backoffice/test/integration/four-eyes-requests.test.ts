import { randomUUID } from 'node:crypto';
import { verifyAuditChain } from '@pwa/audit';
import { createPool, type Pool } from '@pwa/db';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import type { OperatorRole } from '../../src/domain/operator-roles';
import { backofficeMigrationDirectories, backofficeSchema } from '../../src/service-paths';
import { findApprovalRequest } from '../../src/store/approval-request-store';
import { activateInvitedOperator, insertOperator } from '../../src/store/operator-store';
import { createCapturedLogger } from '../../../../test/support/captured-logger';
import { startAuthHarness, type AuthHarness } from '../../../auth/test/integration/auth-harness';
import { decideFourEyesChange, expireDueRequests, requestFourEyesChange } from '../../src/use-cases/four-eyes-requests';
import type { AdminClients } from '../../src/wiring/admin-clients';
import { adminClientsFor, onboardTestPartner } from '../support/console-stand';

/** Four-eyes requests and decisions as people make them, against the real Postgres, with the audit chain checked. */
let database: TestDatabase;
let concurrent: Pool;
const origin = { address: '10.0.0.5', userAgent: 'jest', requestId: 'req-four-eyes' };
let auth: AuthHarness;
let owners: AdminClients;
let funding: { action: string; target: { kind: string; id: string }; parameters: { currency: string; amountMinor: string }; reason: string };

beforeAll(async () => {
  auth = await startAuthHarness();
  owners = adminClientsFor({ authUrl: auth.baseUrl }, createCapturedLogger('four-eyes-auth').logger);
  funding = { action: 'partner.fund', target: { kind: 'partner', id: await onboardTestPartner(auth) }, parameters: { currency: 'USD', amountMinor: '500000' }, reason: 'Wire FT-0042 received' };
  database = await openTestDatabase({ label: 'backoffice_four_eyes', schema: backofficeSchema, migrationDirectories: backofficeMigrationDirectories });
  concurrent = createPool({ connectionString: database.databaseUrl, applicationName: 'backoffice-four-eyes-races', schema: backofficeSchema, maxConnections: 8 });
});

afterAll(async () => {
  owners?.shutdown();
  await auth?.stop();
  await concurrent?.end();
  await database?.drop();
});

async function activeOperator(name: string, roles: OperatorRole[]): Promise<string> {
  const operator = await insertOperator(database.pool, { operatorId: randomUUID(), email: `${name.toLowerCase().replace(/ /g, "-")}.${randomUUID().slice(0, 8)}@operator.example`, displayName: name, roles, createdBy: null });
  await activateInvitedOperator(database.pool, { operatorId: operator.operatorId, passwordHash: '$argon2id$placeholder', sealedTotpSecret: 'sealed' });
  return operator.operatorId;
}


async function auditActions(): Promise<string[]> {
  const rows = await database.pool.query<{ entry: string }>(`SELECT action || ':' || outcome || coalesce(':' || reason, '') AS entry FROM audit_log ORDER BY sequence`);
  return rows.rows.map((row) => row.entry);
}

describe('four-eyes requests', () => {
  test('when a maker asks for a funding and a different checker approves it, then it is approved once and both steps are audited', async () => {
    const [maker, checker] = await Promise.all([activeOperator('Maker', ['maker']), activeOperator('Checker', ['checker'])]);
    const requested = await requestFourEyesChange(database.pool, maker, funding, origin, owners.targets);
    if (requested.kind !== 'requested') throw new Error(requested.reason);
    expect(requested.request).toMatchObject({ status: 'pending', makerId: maker, action: 'partner.fund' });
    const decided = await decideFourEyesChange(database.pool, checker, { requestId: requested.request.requestId, outcome: 'approved' }, origin);
    expect(decided).toMatchObject({ kind: 'decided', request: { status: 'approved', checkerId: checker } });
    expect(await decideFourEyesChange(database.pool, checker, { requestId: requested.request.requestId, outcome: 'approved' }, origin)).toEqual({ kind: 'refused', reason: 'already-decided' });
    expect((await auditActions()).slice(-3)).toEqual(['approval_request.create:done', 'approval_request.approve:done', 'approval_request.approve:refused:already-decided']);
  });

  test('when a viewer, a checker or an admin asks for a change, or the action is not a four-eyes one, then it is refused and the refusal audited', async () => {
    const viewer = await activeOperator('Viewer', ['viewer']);
    const checker = await activeOperator('Checker', ['checker']);
    const admin = await activeOperator('Admin', ['admin']);
    const maker = await activeOperator('Maker', ['maker']);
    expect(await requestFourEyesChange(database.pool, admin, funding, origin, owners.targets)).toEqual({ kind: 'refused', reason: 'not-a-maker' });
    expect(await requestFourEyesChange(database.pool, viewer, funding, origin, owners.targets)).toEqual({ kind: 'refused', reason: 'not-a-maker' });
    expect(await requestFourEyesChange(database.pool, checker, funding, origin, owners.targets)).toEqual({ kind: 'refused', reason: 'not-a-maker' });
    expect(await requestFourEyesChange(database.pool, maker, { ...funding, action: 'partner.delete' }, origin, owners.targets)).toEqual({ kind: 'refused', reason: 'unknown-action' });
    expect(await requestFourEyesChange(database.pool, maker, { ...funding, reason: '   ' }, origin, owners.targets)).toEqual({ kind: 'refused', reason: 'reason-required' });
    expect(await requestFourEyesChange(database.pool, maker, { ...funding, lifetimeSeconds: 5 }, origin, owners.targets)).toEqual({ kind: 'refused', reason: 'bad-lifetime' });
    expect(await requestFourEyesChange(database.pool, randomUUID(), funding, origin, owners.targets)).toEqual({ kind: 'refused', reason: 'not-an-active-operator' });
    expect((await auditActions()).slice(-7)).toEqual([
      'approval_request.create:refused:not-a-maker',
      'approval_request.create:refused:not-a-maker',
      'approval_request.create:refused:not-a-maker',
      'approval_request.create:refused:unknown-action',
      'approval_request.create:refused:reason-required',
      'approval_request.create:refused:bad-lifetime',
      'approval_request.create:refused:not-an-active-operator',
    ]);
  });

  test('when the maker, even one who also holds the checker role, or a viewer decides, then it is refused and the request stays pending', async () => {
    const makerAndChecker = await activeOperator('Both', ['maker', 'checker']);
    const viewer = await activeOperator('Viewer', ['viewer']);
    const requested = await requestFourEyesChange(database.pool, makerAndChecker, funding, origin, owners.targets);
    if (requested.kind !== 'requested') throw new Error(requested.reason);
    expect(await decideFourEyesChange(database.pool, makerAndChecker, { requestId: requested.request.requestId, outcome: 'approved' }, origin)).toEqual({ kind: 'refused', reason: 'own-request' });
    expect(await decideFourEyesChange(database.pool, viewer, { requestId: requested.request.requestId, outcome: 'approved' }, origin)).toEqual({ kind: 'refused', reason: 'not-a-checker' });
    expect(await decideFourEyesChange(database.pool, viewer, { requestId: randomUUID(), outcome: 'approved' }, origin)).toEqual({ kind: 'refused', reason: 'not-found' });
    expect((await findApprovalRequest(database.pool, requested.request.requestId))?.status).toBe('pending');
  });

  test('when two checkers approve at once, or one approves while another rejects, then one decision stands and the other is refused', async () => {
    const maker = await activeOperator('Maker', ['maker']);
    const checkers = await Promise.all([activeOperator('Checker A', ['checker']), activeOperator('Checker B', ['checker']), activeOperator('Checker C', ['checker'])]);
    const requested = await requestFourEyesChange(database.pool, maker, funding, origin, owners.targets);
    if (requested.kind !== 'requested') throw new Error(requested.reason);
    const outcomes = await Promise.all(
      checkers.map((checker, index) => decideFourEyesChange(concurrent, checker, { requestId: requested.request.requestId, outcome: index === 1 ? 'rejected' : 'approved' }, origin)),
    );
    expect(outcomes.filter((outcome) => outcome.kind === 'decided')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === 'refused').map((outcome) => (outcome.kind === 'refused' ? outcome.reason : ''))).toEqual(['already-decided', 'already-decided']);
  });

  test('when a request expires unanswered, then a checker is refused, the sweep marks it expired once as the system, and the audit chain verifies', async () => {
    const maker = await activeOperator('Maker', ['maker']);
    const checker = await activeOperator('Checker', ['checker']);
    const requested = await requestFourEyesChange(database.pool, maker, { ...funding, lifetimeSeconds: 60 }, origin, owners.targets);
    if (requested.kind !== 'requested') throw new Error(requested.reason);
    await database.pool.query(`UPDATE approval_requests SET requested_at = requested_at - interval '2 minutes', expires_at = expires_at - interval '2 minutes' WHERE id = $1`, [requested.request.requestId]);
    expect(await decideFourEyesChange(database.pool, checker, { requestId: requested.request.requestId, outcome: 'approved' }, origin)).toEqual({ kind: 'refused', reason: 'expired' });
    const [first, second] = await Promise.all([expireDueRequests(concurrent), expireDueRequests(concurrent)]);
    expect([...first, ...second]).toEqual([requested.request.requestId]);
    expect((await auditActions()).slice(-2)).toEqual(['approval_request.approve:refused:expired', 'approval_request.expire:done']);
    expect(await verifyAuditChain(database.pool)).toMatchObject({ ok: true });
  });

  test('when a maker asks for a change to a partner auth does not know, or auth does not answer, then it is refused at request time and the refusal audited', async () => {
    const maker = await activeOperator('Maker', ['maker']);
    const statusChange = { action: 'partner.status.set', target: { kind: 'partner', id: randomUUID() }, parameters: { status: 'suspended' }, reason: 'Chargeback investigation' };
    expect(await requestFourEyesChange(database.pool, maker, statusChange, origin, owners.targets)).toEqual({ kind: 'refused', reason: 'unknown-target' });
    const known = { ...statusChange, target: { kind: 'partner', id: await onboardTestPartner(auth, 'Known Partner') } };
    const away = adminClientsFor({}, createCapturedLogger('four-eyes-auth-away').logger);
    try {
      expect(await requestFourEyesChange(database.pool, maker, known, origin, away.targets)).toEqual({ kind: 'refused', reason: 'owner-unavailable' });
    } finally {
      away.shutdown();
    }
    expect(await requestFourEyesChange(database.pool, maker, known, origin, owners.targets)).toMatchObject({ kind: 'requested', request: { action: 'partner.status.set', status: 'pending' } });
    expect((await auditActions()).slice(-3)).toEqual(['approval_request.create:refused:unknown-target', 'approval_request.create:refused:owner-unavailable', 'approval_request.create:done']);
  });
});
