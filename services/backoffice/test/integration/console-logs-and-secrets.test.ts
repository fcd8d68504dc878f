import { createCapturedLogger } from '../../../../test/support/captured-logger';
import { bootstrapFirstAdmin } from '../../src/use-cases/bootstrap-first-admin';
import { startConsoleStand, totpCodeOf, type ConsoleStand } from '../support/console-stand';

/**
 * What the back-office writes to its log while people set up, sign in, fail to sign in, invite and
 * approve: every secret that crossed it (passwords, TOTP secrets, set-up links, session
 * ids, CSRF tokens) is looked for in every line, and none may be there.
 */
const captured = createCapturedLogger('backoffice');
let stand: ConsoleStand;

beforeAll(async () => {
  stand = await startConsoleStand('backoffice_log_secrets', { logger: captured.logger });
});

afterAll(async () => {
  await stand?.stop();
});

describe('secrets never reach the log', () => {
  test('when people set up, sign in, fail, invite and approve, then no password, TOTP secret, set-up link, session id or CSRF token is in any log line', async () => {
    const secrets: string[] = [];
    const password = 'amber kettle on 11 hills';
    secrets.push(password);
    const bootstrap = await bootstrapFirstAdmin(stand.database.pool, { email: 'log.admin@operator.example', displayName: 'Log Admin', consoleBaseUrl: 'https://backoffice.internal.example' });
    if (bootstrap.kind === 'refused') throw new Error(bootstrap.reason);
    const token = bootstrap.setupLink.split('#token=')[1] ?? '';
    secrets.push(token);
    const begun = await stand.call('POST', '/api/v1/setup/begin', { body: { token } });
    const secretBase32 = String(begun.body.data?.secretBase32);
    secrets.push(secretBase32, String(begun.body.data?.enrolment));
    const setupCode = totpCodeOf(secretBase32, Date.now());
    expect((await stand.call('POST', '/api/v1/setup/complete', { body: { token, password, enrolment: begun.body.data?.enrolment, code: setupCode } })).status).toBe(201);

    const wrongPassword = 'a wrong password typed in a hurry';
    secrets.push(wrongPassword);
    expect((await stand.call('POST', '/api/v1/session', { body: { email: 'log.admin@operator.example', password: wrongPassword } })).status).toBe(401);
    const passwordStep = await stand.call('POST', '/api/v1/session', { body: { email: 'log.admin@operator.example', password } });
    const pendingSession = (passwordStep.cookie ?? '').split('=')[1] ?? '';
    const pendingCsrf = String(passwordStep.body.data?.csrfToken);
    secrets.push(pendingSession, pendingCsrf);
    const wrongCode = setupCode === '000000' ? '111111' : '000000';
    expect((await stand.call('POST', '/api/v1/session/mfa', { cookie: passwordStep.cookie ?? '', csrf: pendingCsrf, body: { code: wrongCode } })).status).toBe(401);
    const mfa = await stand.call('POST', '/api/v1/session/mfa', { cookie: passwordStep.cookie ?? '', csrf: pendingCsrf, body: { code: totpCodeOf(secretBase32, Date.now() + 30_000) } });
    expect(mfa.status).toBe(200);
    const session = (mfa.cookie ?? '').split('=')[1] ?? '';
    const csrf = String(mfa.body.data?.csrfToken);
    secrets.push(session, csrf);

    const invited = await stand.call('POST', '/api/v1/operators', { cookie: mfa.cookie ?? '', csrf, body: { email: 'invitee@operator.example', displayName: 'Invitee', roles: ['maker'] } });
    secrets.push(String(invited.body.data?.setupLink).split('#token=')[1] ?? '');
    const maker = await stand.signedInOperator('Log Maker', ['maker']);
    const checker = await stand.signedInOperator('Log Checker', ['checker']);
    secrets.push(maker.csrf, checker.csrf, maker.cookie.split('=')[1] ?? '', checker.cookie.split('=')[1] ?? '');
    const asked = await stand.call('POST', '/api/v1/approval-requests', { cookie: maker.cookie, csrf: maker.csrf, body: { action: 'partner.fund', target: { kind: 'partner', id: await stand.newPartnerId() }, parameters: { currency: 'USD', amountMinor: '100' }, reason: 'Wire' } });
    // The wallet is away in this stand: the execution fails and is logged, with its error.
    expect((await stand.call('POST', `/api/v1/approval-requests/${String(asked.body.data?.requestId)}/approve`, { cookie: checker.cookie, csrf: checker.csrf, body: {} })).body.data).toMatchObject({ status: 'approved' });
    expect(await stand.call('DELETE', '/api/v1/session', { cookie: mfa.cookie ?? '', csrf })).toMatchObject({ status: 204 });

    const logged = captured.text();
    expect(logged).toContain('listening');
    expect(logged).toContain('approved request not executed yet');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(6);
      expect({ secret: `${secret.slice(0, 3)}…`, found: logged.includes(secret) }).toEqual({ secret: `${secret.slice(0, 3)}…`, found: false });
    }
  });
});
