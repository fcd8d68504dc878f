import { randomUUID } from 'node:crypto';
import { verifyAuditChain } from '@pwa/audit';
import { startConsoleStand, type ConsoleStand, type SignedInOperator } from '../support/console-stand';

/**
 * Four eyes over the console API: each role's allowed and refused calls, the maker's own approval
 * refused, checkers racing, bad input refused with a CON_ code and nothing stored, every refusal in
 * the audit chain.
 */
let stand: ConsoleStand;
let maker: SignedInOperator;
let checker: SignedInOperator;
let otherChecker: SignedInOperator;
let viewer: SignedInOperator;
let admin: SignedInOperator;

beforeAll(async () => {
  stand = await startConsoleStand('backoffice_approvals_api');
  partnerId = await stand.newPartnerId('Approvals Partner');
  maker = await stand.signedInOperator('Maker Musu', ['maker']);
  checker = await stand.signedInOperator('Checker Kollie', ['checker']);
  otherChecker = await stand.signedInOperator('Checker Two', ['checker']);
  viewer = await stand.signedInOperator('Viewer Varney', ['viewer']);
  admin = await stand.signedInOperator('Admin Ade', ['admin']);
});

afterAll(async () => {
  await stand?.stop();
});

let partnerId: string;
const funding = () => ({ action: 'partner.fund', target: { kind: 'partner', id: partnerId }, parameters: { currency: 'USD', amountMinor: '250000' }, reason: 'Wire FT-7781 received 28 Nov' });
const ask = (person: SignedInOperator, body: unknown) => stand.call('POST', '/api/v1/approval-requests', { cookie: person.cookie, csrf: person.csrf, body });
const decide = (person: SignedInOperator, requestId: string, outcome: 'approve' | 'reject', body: unknown = {}) =>
  stand.call('POST', `/api/v1/approval-requests/${requestId}/${outcome}`, { cookie: person.cookie, csrf: person.csrf, body });
const requestCount = async (): Promise<number> => Number((await stand.database.pool.query<{ count: string }>('SELECT count(*) AS count FROM approval_requests')).rows[0]?.count);

describe('four eyes over the console API', () => {
  test('when a maker asks and a checker approves, then the request is approved once and both are listed and audited', async () => {
    const asked = await ask(maker, funding());
    expect(asked).toMatchObject({ status: 201, body: { data: { status: 'pending', action: 'partner.fund', makerId: maker.operatorId, makerName: 'Maker Musu', checkerName: null } } });
    const requestId = String(asked.body.data?.requestId);
    const queue = await stand.call('GET', '/api/v1/approval-requests?status=pending', { cookie: viewer.cookie });
    expect(queue.status).toBe(200);
    expect((queue.body.data?.requests as { requestId: string }[]).map((request) => request.requestId)).toContain(requestId);
    expect(await decide(checker, requestId, 'approve', { note: 'Matched bank statement' })).toMatchObject({ status: 200, body: { data: { status: 'approved', checkerId: checker.operatorId, checkerName: 'Checker Kollie', makerName: 'Maker Musu', decisionNote: 'Matched bank statement' } } });
    expect(await decide(otherChecker, requestId, 'approve')).toMatchObject({ status: 409, body: { code: 'CON_4002' } });
  });

  test('when a viewer, a checker or an admin asks for a change, then it is refused 403 and nothing is stored', async () => {
    const before = await requestCount();
    for (const person of [viewer, checker, admin]) expect(await ask(person, funding())).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect(await requestCount()).toBe(before);
  });

  test('when the maker approves their own request, or a maker or viewer decides, then it is refused and stays pending', async () => {
    const makerAndChecker = await stand.signedInOperator('Both Roles', ['maker', 'checker']);
    const asked = await ask(makerAndChecker, funding());
    const requestId = String(asked.body.data?.requestId);
    expect(await decide(makerAndChecker, requestId, 'approve')).toMatchObject({ status: 403, body: { code: 'CON_3002' } });
    expect(await decide(maker, requestId, 'approve')).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect(await decide(viewer, requestId, 'reject')).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect(await decide(checker, randomUUID(), 'approve')).toMatchObject({ status: 404, body: { code: 'CON_4001' } });
    expect(await decide(checker, 'not-a-uuid', 'approve')).toMatchObject({ status: 404, body: { code: 'CON_4001' } });
    const pending = await stand.call('GET', '/api/v1/approval-requests', { cookie: maker.cookie });
    expect((pending.body.data?.requests as { requestId: string; status: string }[]).find((request) => request.requestId === requestId)?.status).toBe('pending');
  });

  test('when two checkers approve at once, then one is answered 200 and the other 409', async () => {
    const asked = await ask(maker, funding());
    const requestId = String(asked.body.data?.requestId);
    const answers = await Promise.all([decide(checker, requestId, 'approve'), decide(otherChecker, requestId, 'reject')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
  });

  test('when a change is malformed, then it is refused 400 CON_2001 naming what to fix and nothing is stored', async () => {
    const before = await requestCount();
    const cases: [unknown, string][] = [
      [{ ...funding(), parameters: { currency: 'EUR', amountMinor: '100' } }, 'parameters.currency'],
      [{ ...funding(), parameters: { currency: 'USD', amountMinor: '12.50' } }, 'parameters.amountMinor'],
      [{ ...funding(), parameters: { currency: 'USD', amountMinor: '-5' } }, 'parameters.amountMinor'],
      [{ ...funding(), target: { kind: 'partner', id: 'P-1' } }, 'target.id'],
      [{ ...funding(), action: 'partner.delete' }, 'action'],
      [{ ...funding(), reason: '' }, 'reason'],
      [{ ...funding(), lifetimeSeconds: 1 }, 'lifetimeSeconds'],
      [{ ...funding(), extra: true }, 'extra (unknown: leave it out)'],
      [{ action: 'partner.fund' }, 'target'],
      ['[]', 'body'],
    ];
    for (const [body, named] of cases) {
      const answer = await ask(maker, body);
      expect({ body, status: answer.status, code: answer.body.code }).toEqual({ body, status: 400, code: 'CON_2001' });
      expect(answer.body.message).toContain(named);
    }
    expect(await stand.call('GET', '/api/v1/approval-requests?status=bogus', { cookie: maker.cookie })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await stand.call('GET', '/api/v1/approval-requests?cursor=%3Cscript%3E', { cookie: maker.cookie })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await requestCount()).toBe(before);
  });

  test('when the queue is read a page at a time, then every request appears once across pages', async () => {
    for (let index = 0; index < 5; index += 1) await ask(maker, funding());
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `/api/v1/approval-requests?status=pending&pageSize=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await stand.call('GET', path, { cookie: viewer.cookie });
      expect(page.status).toBe(200);
      seen.push(...(page.body.data?.requests as { requestId: string }[]).map((request) => request.requestId));
      cursor = (page.body.data?.nextCursor as string | null) ?? null;
    } while (cursor !== null);
    expect(new Set(seen).size).toBe(seen.length);
    const pendingCount = Number((await stand.database.pool.query<{ count: string }>(`SELECT count(*) AS count FROM approval_requests WHERE status = 'pending'`)).rows[0]?.count);
    expect(seen).toHaveLength(pendingCount);
  });

  test('when changes are refused by role or content, then each refusal is one audit entry; a signed-in person’s change refused for CSRF is audited too, and the chain verifies', async () => {
    const refusalCount = async (): Promise<number> =>
      Number((await stand.database.pool.query<{ count: string }>(`SELECT count(*) AS count FROM audit_log WHERE outcome = 'refused' AND action LIKE 'approval_request.%'`)).rows[0]?.count);
    const before = await refusalCount();
    expect(await ask(viewer, funding())).toMatchObject({ status: 403 });
    expect(await ask(maker, { ...funding(), parameters: { currency: 'USD', amountMinor: '0' } })).toMatchObject({ status: 400 });
    expect(await stand.call('GET', '/api/v1/approval-requests')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await stand.call('POST', '/api/v1/approval-requests', { cookie: maker.cookie, body: funding() })).toMatchObject({ status: 403, body: { code: 'CON_1005' } });
    const csrfRefusal = await stand.database.pool.query<{ actor: { id: string; displayName: string }; target: { id: string }; reason: string }>(
      `SELECT actor, target, reason FROM audit_log WHERE action = 'console.change_refused' ORDER BY sequence DESC LIMIT 1`,
    );
    expect(csrfRefusal.rows[0]).toEqual({ actor: expect.objectContaining({ id: maker.operatorId, displayName: 'Maker Musu' }), target: { kind: 'endpoint', id: 'POST /api/v1/approval-requests' }, reason: 'the CSRF token was missing or wrong' });
    expect(await ask(maker, '{"action":')).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    expect(await refusalCount()).toBe(before + 2);
    const last = await stand.database.pool.query<{ actor: { id: string }; reason: string }>(`SELECT actor, reason FROM audit_log WHERE action = 'approval_request.create' ORDER BY sequence DESC LIMIT 1`);
    expect(last.rows[0]).toMatchObject({ actor: { id: maker.operatorId }, reason: expect.stringContaining('parameters.amountMinor') });
    expect(await verifyAuditChain(stand.database.pool)).toMatchObject({ ok: true });
  });
});
