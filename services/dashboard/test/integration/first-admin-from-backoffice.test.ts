import { randomUUID } from 'node:crypto';
import { requestOverPlainHttp } from '../../../../test/support/https-client';
import { startStack, type Stack } from '../../../../test/support/stack';

/**
 * The operator who onboards a partner in the back-office invites the partner's first dashboard
 * admin from the partner's page (issue 28): the back-office asks the dashboard on its internal port
 * (never the public one), the one-time link comes back once to that person, a second ask renews it
 * and the first stops working, the admin joins and signs in, and once they can the operator's
 * invitation is refused. The back-office's audit log names who was invited, never the link.
 */
describe('the partner dashboard’s first admin, invited from the back-office', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ logLevel: 'warn', backoffice: true, dashboard: true });
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
  });

  test('when a maker onboards a partner and invites its first admin, then the link is answered once, renewing it retires the first, the admin joins, and a later invitation is refused', async () => {
    const backoffice = stack.backoffice;
    const dashboard = stack.dashboard;
    if (backoffice === undefined || dashboard === undefined) throw new Error('the stack has the back-office and the dashboard');
    const maker = await (await backoffice.seedOperator({ name: 'Onboarding Maker', roles: ['maker'] })).signIn();
    const viewer = await (await backoffice.seedOperator({ name: 'Onboarding Viewer', roles: ['viewer'] })).signIn();
    const onboarded = await maker.request('POST', '/api/v1/partners', { json: { name: `Dashboard Partner ${randomUUID().slice(0, 6)}` }, headers: { 'idempotency-key': randomUUID() } });
    expect(onboarded.status).toBe(201);
    const partnerId = onboarded.body.data.partner.partnerId as string;
    const path = `/api/v1/partners/${partnerId}/dashboard-first-admin`;
    const person = { email: 'first.admin@dashboard-partner.example', displayName: 'First Admin' };

    expect(await viewer.post(path, person)).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect(await maker.post(path, { ...person, email: 'not an address' })).toMatchObject({ status: 400, body: { code: 'CON_2001', message: expect.stringContaining('e-mail address') } });
    expect(await maker.post(`/api/v1/partners/${randomUUID()}/dashboard-first-admin`, person)).toMatchObject({ status: 404, body: { code: 'CON_4008' } });

    const first = await maker.post(path, person);
    expect(first).toMatchObject({ status: 201, body: { data: { partnerId, outcome: 'invited', email: person.email, emailed: null } } });
    const renewed = await maker.post(path, person);
    expect(renewed).toMatchObject({ status: 201, body: { data: { outcome: 'renewed', memberId: first.body.data.memberId } } });
    const firstLink = first.body.data.invitationLink as string;
    const secondLink = renewed.body.data.invitationLink as string;
    expect(secondLink).not.toBe(firstLink);
    expect(secondLink.startsWith(`${dashboard.baseUrl}/invitation#token=`)).toBe(true);

    // The first link stopped working; the second lets the admin join and sign in.
    const stale = await dashboard.client().post('/api/v1/invitation/begin', { token: new URL(firstLink).hash.replace('#token=', '') });
    expect(stale.status).toBeGreaterThanOrEqual(400);
    expect(stale.status).toBeLessThan(500);
    const admin = await dashboard.acceptInvitation(secondLink, { memberId: renewed.body.data.memberId as string, partnerId, email: person.email, displayName: person.displayName, role: 'admin' });
    const session = await (await admin.signIn()).get('/api/v1/session');
    expect(session.body.data.member).toMatchObject({ partnerId, role: 'admin', email: person.email });

    const later = await maker.post(path, { email: 'second.admin@dashboard-partner.example', displayName: 'Second Admin' });
    expect(later).toMatchObject({ status: 409, body: { code: 'CON_4019', message: expect.stringContaining('can sign in already') } });

    // The invitation route, the probes and /metrics are on the dashboard's internal port only: its public port knows none of them.
    const outside = await dashboard.client().post('/internal/admin/first-admin-invitations', { partnerId, ...person, actor: { operatorId: randomUUID(), displayName: 'Outsider' } });
    expect(outside.status).toBe(404);
    for (const path of ['/metrics', '/readyz', '/healthz']) {
      expect([path, (await dashboard.client().get(path)).status]).toEqual([path, 404]);
      const plain = await requestOverPlainHttp(dashboard.port, 'GET', path);
      expect([path, plain.status === 200]).toEqual([path, false]);
    }
    const metrics = await fetch(`${dashboard.internalUrl}/metrics`);
    const metricsText = await metrics.text();
    const served = ['dashboard_plain_http_requests_total', 'dashboard_sign_in_refusals', 'dashboard_audit_chain_intact', 'dashboard_audit_chain_verified_timestamp_seconds'].filter((name) => metricsText.includes(`\n${name}{`));
    expect([metrics.status, served]).toEqual([200, ['dashboard_plain_http_requests_total', 'dashboard_sign_in_refusals', 'dashboard_audit_chain_intact', 'dashboard_audit_chain_verified_timestamp_seconds']]);

    // The back-office's audit log: who invited whom, each refusal, never the link.
    const checker = await (await backoffice.seedOperator({ name: 'Onboarding Checker', roles: ['checker'] })).signIn();
    const audit = await checker.get('/api/v1/audit-log?action=partner.dashboard_first_admin.invite&pageSize=20');
    const entries = audit.body.data.entries as { outcome: string; after: { email?: string } | null }[];
    expect(entries.filter((entry) => entry.outcome === 'done').map((entry) => entry.after?.email)).toEqual([person.email, person.email]);
    for (const link of [firstLink, secondLink]) expect(audit.text).not.toContain(new URL(link).hash.replace('#token=', ''));
    expect(stack.logs()).not.toContain(new URL(secondLink).hash.replace('#token=', ''));
  });
});
