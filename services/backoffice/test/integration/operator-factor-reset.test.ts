import { randomBytes, randomUUID } from 'node:crypto';
import { linkOidcSubject } from '../../src/store/oidc-link-store';
import { operatorPasskeys } from '../../src/store/passkey-store';
import { startConsoleStand, totpCodeOf, type ConsoleStand, type SignedInOperator } from '../support/console-stand';

/**
 * An admin resets the sign-in factors of a person who lost their phone (issue 27): the person is
 * invited again (no password, no TOTP, no passkey, no identity-provider link), their sessions and
 * personal tokens end, and a new one-time set-up link, shown once to the admin, lets them set up
 * afresh. Never on oneself, never on a disabled person; every refusal audited; no secret audited.
 */
let stand: ConsoleStand;
let admin: SignedInOperator;
let secondAdmin: SignedInOperator;
let checker: SignedInOperator;

beforeAll(async () => {
  stand = await startConsoleStand('backoffice_factor_reset');
  admin = await stand.signedInOperator('Reset Admin', ['admin']);
  secondAdmin = await stand.signedInOperator('Second Admin', ['admin']);
  checker = await stand.signedInOperator('Reset Checker', ['checker']);
});

afterAll(async () => {
  await stand?.stop();
});

const reset = (by: SignedInOperator, operatorId: string, body: unknown = { reason: 'lost phone, ticket 88' }) =>
  stand.call('POST', `/api/v1/operators/${operatorId}/factor-resets`, { cookie: by.cookie, csrf: by.csrf, body });

async function auditRows(targetId: string): Promise<{ actor_id: string; outcome: string; reason: string | null; before: unknown; after: unknown; dump: string }[]> {
  const rows = await stand.database.pool.query(
    `SELECT actor->>'id' AS actor_id, outcome, reason, before, after, row_to_json(a)::text AS dump FROM audit_log a WHERE action = 'operator.factors.reset' AND target->>'id' = $1 ORDER BY sequence`,
    [targetId],
  );
  return rows.rows as never;
}

describe('an admin resets a person\'s sign-in factors', () => {
  test('when an admin resets a signed-in person with a passkey, an identity-provider link and a personal token, then all of it ends, the old password fails, and the new link sets them up again', async () => {
    const person = await stand.signedInOperator('Lost Phone', ['maker']);
    const token = await stand.call('POST', '/api/v1/personal-tokens', { cookie: person.cookie, csrf: person.csrf, body: { name: 'laptop' } });
    expect(token.status).toBe(201);
    const tokenSecret = String((token.body.data as { secret: string }).secret);
    await operatorPasskeys.insertPasskey(stand.database.pool, { passkeyId: randomUUID(), personId: person.operatorId, credentialId: randomBytes(16).toString('base64url'), publicKey: randomBytes(64), signCount: 0, transports: ['usb'], name: 'Key', deviceType: 'singleDevice', backedUp: false });
    await linkOidcSubject(stand.database.pool, { issuer: 'https://idp.example', subject: `sub-${randomUUID()}`, operatorId: person.operatorId });

    const done = await reset(admin, person.operatorId);
    expect(done).toMatchObject({ status: 200, body: { data: { operator: { operatorId: person.operatorId, status: 'invited' }, sessionsRevoked: 1 } } });
    const setupLink = String(done.body.data?.setupLink);
    expect(setupLink).toMatch(/\/setup#token=[A-Za-z0-9_-]{43}$/);
    const linkToken = setupLink.split('#token=')[1] ?? '';

    expect(await stand.call('GET', '/api/v1/session', { cookie: person.cookie })).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await stand.call('GET', '/api/v1/me', { origin: null, headers: { authorization: `Bearer ${tokenSecret}` } })).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await stand.call('POST', '/api/v1/session', { body: { email: person.email, password: 'Lost Phone has a long enough passphrase' } })).toMatchObject({ status: 401, body: { code: 'CON_1001' } });
    const left = await stand.database.pool.query<{ totp: string; passkeys: string; links: string }>(
      `SELECT (SELECT count(*) FROM operator_totp_factors WHERE operator_id = $1) AS totp, (SELECT count(*) FROM operator_passkeys WHERE operator_id = $1) AS passkeys, (SELECT count(*) FROM operator_oidc_links WHERE operator_id = $1) AS links`,
      [person.operatorId],
    );
    expect(left.rows[0]).toEqual({ totp: '0', passkeys: '0', links: '0' });

    const audited = await auditRows(person.operatorId);
    expect(audited.map((row) => [row.actor_id, row.outcome])).toEqual([[admin.operatorId, 'done']]);
    expect(audited[0]).toMatchObject({
      before: { status: 'active', authenticatorApp: true, passkeys: 1, identityProviderLinks: 1 },
      after: { status: 'invited', authenticatorApp: false, passkeys: 0, identityProviderLinks: 0, because: 'lost phone, ticket 88' },
    });
    expect(audited[0]?.dump).not.toContain(linkToken);
    expect(audited[0]?.dump).not.toContain(tokenSecret);

    // The person sets up again from the new link: a new password and a new authenticator.
    const begun = await stand.call('POST', '/api/v1/setup/begin', { body: { token: linkToken } });
    expect(begun.status).toBe(200);
    const secretBase32 = String(begun.body.data?.secretBase32);
    const newPassword = 'a brand new passphrase after the reset';
    const completed = await stand.call('POST', '/api/v1/setup/complete', { body: { token: linkToken, password: newPassword, enrolment: begun.body.data?.enrolment, code: totpCodeOf(secretBase32, Date.now()) } });
    expect(completed.status).toBe(201);
    const signIn = await stand.call('POST', '/api/v1/session', { body: { email: person.email, password: newPassword } });
    expect(signIn.status).toBe(202);
    const mfa = await stand.call('POST', '/api/v1/session/mfa', { cookie: signIn.cookie ?? '', csrf: String(signIn.body.data?.csrfToken), body: { code: totpCodeOf(secretBase32, Date.now() + 30_000) } });
    expect(mfa.status).toBe(200);
  });

  test('when two admins reset the same person at once, then both answers carry a link and only the later one works', async () => {
    const person = await stand.signedInOperator('Twice Reset', ['viewer']);
    const answers = await Promise.all([reset(admin, person.operatorId), reset(secondAdmin, person.operatorId)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const begins = await Promise.all(answers.map((answer) => stand.call('POST', '/api/v1/setup/begin', { body: { token: String(answer.body.data?.setupLink).split('#token=')[1] } })));
    expect(begins.map((answer) => answer.status).sort()).toEqual([200, 410]);
    expect((await auditRows(person.operatorId)).filter((row) => row.outcome === 'done')).toHaveLength(2);
  });

  test('when a checker resets, an admin resets themselves, the person is unknown or disabled, or no reason is given, then it is refused with its code, audited, and nothing changes', async () => {
    const person = await stand.signedInOperator('Not Reset', ['maker']);
    expect(await reset(checker, person.operatorId)).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect(await reset(admin, admin.operatorId)).toMatchObject({ status: 403, body: { code: 'CON_3003', message: expect.stringContaining('another admin') } });
    expect(await reset(admin, randomUUID())).toMatchObject({ status: 404, body: { code: 'CON_4005' } });
    expect(await reset(admin, person.operatorId, {})).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await stand.call('GET', '/api/v1/session', { cookie: person.cookie })).toMatchObject({ status: 200 });
    expect((await auditRows(person.operatorId)).map((row) => [row.actor_id, row.outcome])).toEqual([[checker.operatorId, 'refused']]);
    expect((await auditRows(admin.operatorId)).map((row) => row.outcome)).toEqual(['refused']);

    const leaving = await stand.signedInOperator('Leaving For Good', ['viewer']);
    expect((await stand.call('POST', `/api/v1/operators/${leaving.operatorId}/disable`, { cookie: admin.cookie, csrf: admin.csrf })).status).toBe(200);
    expect(await reset(admin, leaving.operatorId)).toMatchObject({ status: 409, body: { code: 'CON_4013' } });
    const status = await stand.database.pool.query<{ status: string }>(`SELECT status FROM operators WHERE id = $1`, [leaving.operatorId]);
    expect(status.rows[0]?.status).toBe('disabled');
  });
});
