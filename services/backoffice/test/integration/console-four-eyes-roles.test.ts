import { randomUUID } from 'node:crypto';
import { createTestPartner, createTestUser, postJson, startWalletHarness, transferBody, type WalletHarness } from '../../../wallet/test/integration/wallet-harness';
import { startConsoleStand, type ConsoleStand, type SignedInOperator } from '../support/console-stand';

/**
 * Each role against each four-eyes action besides funding, on the console API (roles read from the
 * database on every call): only a maker asks, only a checker decides, every role reads the queue.
 * The stand's quotes is a closed port (a fee approval stays approved); auth and the wallet are real,
 * since they check a request's partner or disbursement. This file is about who may do what; the
 * execution is four-eyes-actions-execution.test.ts.
 */
let wallet: WalletHarness;
let stand: ConsoleStand;
let referenceId: string;
let viewer: SignedInOperator;
let maker: SignedInOperator;
let checker: SignedInOperator;
let admin: SignedInOperator;
let partnerId: string;

beforeAll(async () => {
  wallet = await startWalletHarness();
  stand = await startConsoleStand('backoffice_action_roles', { walletUrl: wallet.baseUrl });
  [viewer, maker, checker, admin] = [
    await stand.signedInOperator('Role Viewer', ['viewer']),
    await stand.signedInOperator('Role Maker', ['maker']),
    await stand.signedInOperator('Role Checker', ['checker']),
    await stand.signedInOperator('Role Admin', ['admin']),
  ];
  partnerId = await stand.newPartnerId('Role Partner');
  const user = await createTestUser(wallet);
  referenceId = `PKD-1718000000000-${randomUUID().replace(/-/g, '').slice(0, 24).toUpperCase()}`;
  const body = { ...transferBody({ type: 'disbursement', partnerId: await createTestPartner(wallet, { USD: 5_000n }), phone: user.phone, currency: 'USD', amountMinor: '700', feeMinor: '0' }), referenceId };
  expect((await postJson(`${wallet.baseUrl}/internal/transfers`, body)).status).toBe(200);
});

afterAll(async () => {
  await stand?.stop();
  await wallet?.stop();
});

const changes = (): [string, { kind: string; id: string }, Record<string, unknown>][] => [
  ['disbursement.reverse', { kind: 'disbursement', id: referenceId }, {}],
  ['fee_schedule.set', { kind: 'fee_schedule', id: 'collection:USD' }, { tiers: [{ upToMinor: null, flatMinor: '25', basisPoints: 150 }] }],
  ['tier_limit.set', { kind: 'tier_limit', id: 'Platinum:disbursement:USD' }, { dailyMinor: '5000000' }],
  ['partner.status.set', { kind: 'partner', id: partnerId }, { status: 'suspended' }],
  ['partner.permissions.set', { kind: 'partner', id: partnerId }, { permissions: ['disbursement'] }],
  ['partner.rate_limit.set', { kind: 'partner', id: partnerId }, { rateLimitPerMinute: null }],
];

const ask = (person: SignedInOperator, action: string, target: { kind: string; id: string }, parameters: Record<string, unknown>) =>
  stand.call('POST', '/api/v1/approval-requests', { cookie: person.cookie, csrf: person.csrf, body: { action, target, parameters, reason: 'Role check' } });
const decide = (person: SignedInOperator, requestId: string, verb: 'approve' | 'reject') =>
  stand.call('POST', `/api/v1/approval-requests/${requestId}/${verb}`, { cookie: person.cookie, csrf: person.csrf, body: {} });

describe('who may ask for and decide each four-eyes action', () => {
  test.each(['disbursement.reverse', 'fee_schedule.set', 'tier_limit.set', 'partner.status.set', 'partner.permissions.set', 'partner.rate_limit.set'])(
    'when each role asks for and decides %s, then only the maker asks, only the checker decides, and every refusal is audited',
    async (action) => {
      const [, target, parameters] = changes().find(([name]) => name === action) ?? [];
      if (!target || !parameters) throw new Error(`no change for ${action}`);
      for (const person of [viewer, checker, admin]) expect(await ask(person, action, target, parameters)).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
      const asked = await ask(maker, action, target, parameters);
      expect(asked).toMatchObject({ status: 201, body: { data: { action, status: 'pending', makerId: maker.operatorId } } });
      const requestId = String(asked.body.data?.requestId);

      for (const person of [viewer, maker, admin]) {
        expect(await decide(person, requestId, 'approve')).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
        expect(await decide(person, requestId, 'reject')).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
      }
      for (const person of [viewer, maker, checker, admin]) {
        const listed = await stand.call('GET', '/api/v1/approval-requests?status=pending&pageSize=100', { cookie: person.cookie });
        expect(listed.status).toBe(200);
        expect((listed.body.data?.requests as { requestId: string }[]).map((request) => request.requestId)).toContain(requestId);
      }
      // Auth and the wallet execute at once; quotes is away, so a fee approval stands, unexecuted, for the sweep.
      const executedAtOnce = target.kind !== 'fee_schedule';
      expect(await decide(checker, requestId, 'approve')).toMatchObject({ status: 200, body: { data: { status: executedAtOnce ? 'executed' : 'approved', checkerId: checker.operatorId } } });

      const refusals = await stand.database.pool.query<{ actor_id: string; action: string }>(
        `SELECT actor->>'id' AS actor_id, action FROM audit_log WHERE outcome = 'refused' AND ((action = 'approval_request.create' AND after->>'action' = $1) OR target->>'id' = $2)`,
        [action, requestId],
      );
      expect(refusals.rows.filter((row) => row.action === 'approval_request.create').map((row) => row.actor_id).sort()).toEqual([viewer, checker, admin].map((person) => person.operatorId).sort());
      expect(refusals.rows.filter((row) => row.action !== 'approval_request.create')).toHaveLength(6);
    },
  );

  test('when a maker names a partner auth does not know, then the request is refused with CON_4007 at request time and nothing waits for a checker', async () => {
    const unknownPartner = randomUUID();
    for (const [action, , parameters] of changes().filter(([, target]) => target.kind === 'partner')) {
      expect(await ask(maker, action, { kind: 'partner', id: unknownPartner }, parameters)).toMatchObject({ status: 404, body: { code: 'CON_4007' } });
    }
    expect(await ask(maker, 'partner.fund', { kind: 'partner', id: unknownPartner }, { currency: 'USD', amountMinor: '100' })).toMatchObject({ status: 404, body: { code: 'CON_4007' } });
    const waiting = await stand.database.pool.query(`SELECT 1 FROM approval_requests WHERE target->>'id' = $1`, [unknownPartner]);
    expect(waiting.rowCount).toBe(0);
  });

  test('when a change is malformed for its action, then it is refused with CON_2001 naming the field', async () => {
    const cases: [string, { kind: string; id: string }, Record<string, unknown>, string][] = [
      ['fee_schedule.set', { kind: 'fee_schedule', id: 'collection:EUR' }, { minimumFeeMinor: '1' }, 'target.id'],
      ['fee_schedule.set', { kind: 'fee_schedule', id: 'collection:USD' }, { minimumFeeMinor: '007' }, 'parameters.minimumFeeMinor'],
      ['tier_limit.set', { kind: 'tier_limit', id: 'Gold:collection:USD' }, {}, 'parameters'],
      ['partner.permissions.set', { kind: 'partner', id: partnerId }, { permissions: ['collection', 'collection'] }, 'parameters.permissions'],
      ['partner.status.set', { kind: 'partner', id: partnerId }, { status: 'pending_activation' }, 'parameters.status'],
      ['disbursement.reverse', { kind: 'disbursement', id: 'not a reference' }, {}, 'target.id'],
    ];
    for (const [action, target, parameters, field] of cases) {
      const refused = await ask(maker, action, target, parameters);
      expect(refused).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
      expect(refused.body.message).toContain(field);
    }
  });
});
