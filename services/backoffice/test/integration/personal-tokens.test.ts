import { Redis } from 'ioredis';
import { sessionIdHash } from '@pwa/web-auth';
import { createCapturedLogger } from '../../../../test/support/captured-logger';
import { replaceOperatorRoles } from '../../src/store/operator-store';
import { startConsoleStand, type CallOptions, type ConsoleStand, type SignedInOperator } from '../support/console-stand';

/**
 * Personal access tokens (decision 0072) against the real Postgres and Redis: made by a signed-in
 * person and shown once, then used as `Authorization: Bearer pwabo_…` the way the operator CLI
 * will, acting as the person with their current roles under the same four-eyes rules; every way a
 * token ends answers the same 401, and no token reaches a log line or the audit log.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { redis: string } };
const captured = createCapturedLogger('backoffice');
let stand: ConsoleStand;
let admin: SignedInOperator;
const secretsSeen: string[] = [];

beforeAll(async () => {
  stand = await startConsoleStand('backoffice_personal_tokens', { logger: captured.logger });
  admin = await stand.signedInOperator('Token Admin', ['admin']);
});

afterAll(async () => {
  await stand?.stop();
});

/** A call as the CLI makes it: the token, no cookie, no CSRF token, no Origin. */
const withToken = (secret: string, method: string, path: string, options: Omit<CallOptions, 'headers'> = {}) =>
  stand.call(method, path, { origin: null, ...options, headers: { authorization: `Bearer ${secret}` } });

const withSession = (person: SignedInOperator, method: string, path: string, body?: unknown) => stand.call(method, path, { cookie: person.cookie, csrf: person.csrf, ...(body === undefined ? {} : { body }) });

async function newToken(person: SignedInOperator, name = 'operator CLI', lifetimeDays?: number): Promise<{ tokenId: string; secret: string }> {
  const created = await withSession(person, 'POST', '/api/v1/personal-tokens', { name, ...(lifetimeDays === undefined ? {} : { lifetimeDays }) });
  expect(created.status).toBe(201);
  const secret = String(created.body.data?.secret);
  secretsSeen.push(secret);
  return { tokenId: String((created.body.data?.token as { tokenId: string }).tokenId), secret };
}

async function fundingRequestBy(call: (method: string, path: string, options: Omit<CallOptions, 'headers'>) => ReturnType<ConsoleStand['call']>): Promise<string> {
  const asked = await call('POST', '/api/v1/approval-requests', { body: { action: 'partner.fund', target: { kind: 'partner', id: await stand.newPartnerId() }, parameters: { currency: 'USD', amountMinor: '2500' }, reason: 'Wire received' } });
  expect(asked.status).toBe(201);
  return String(asked.body.data?.requestId);
}

describe('personal access tokens', () => {
  test('when a signed-in person makes a token, then it is shown once with its prefix, kept only as SHA-256, listed without the secret, and the making is audited', async () => {
    const person = await stand.signedInOperator('Token Maker', ['maker']);
    const created = await withSession(person, 'POST', '/api/v1/personal-tokens', { name: 'laptop CLI' });
    expect(created).toMatchObject({ status: 201, body: { data: { token: { name: 'laptop CLI', state: 'active', lastUsedAt: null, revokedAt: null } } } });
    expect(created.headers.get('cache-control')).toContain('no-store');
    const secret = String(created.body.data?.secret);
    secretsSeen.push(secret);
    expect(secret).toMatch(/^pwabo_[A-Za-z0-9_-]{43}$/);
    const tokenId = String((created.body.data?.token as { tokenId: string }).tokenId);

    const stored = await stand.database.pool.query<{ hashed: boolean; days: number }>(
      `SELECT token_sha256 = sha256(convert_to($2, 'UTF8')) AS hashed, extract(day FROM expires_at - created_at)::int AS days FROM operator_personal_tokens WHERE id = $1`,
      [tokenId, secret],
    );
    expect(stored.rows).toEqual([{ hashed: true, days: 30 }]);

    const listed = await withSession(person, 'GET', '/api/v1/personal-tokens');
    expect(listed.status).toBe(200);
    expect(listed.body.data?.tokens).toEqual([expect.objectContaining({ tokenId, name: 'laptop CLI', state: 'active' })]);
    expect(listed.text).not.toContain(secret);
    expect(await withToken(secret, 'GET', '/api/v1/me')).toMatchObject({ status: 200, body: { data: { operator: { operatorId: person.operatorId, email: person.email }, via: { kind: 'personal-token', tokenId } } } });
    expect(await withSession(person, 'GET', '/api/v1/me')).toMatchObject({ status: 200, body: { data: { operator: { operatorId: person.operatorId }, via: { kind: 'session' } } } });
    expect(Object.keys((listed.body.data?.tokens as object[])[0] ?? {}).sort()).toEqual(['createdAt', 'expiresAt', 'lastUsedAt', 'name', 'revokedAt', 'state', 'tokenId']);

    const audit = await stand.database.pool.query<{ actor: { id: string }; after: unknown }>(`SELECT actor, after FROM audit_log WHERE action = 'personal_token.create' AND target->>'id' = $1`, [tokenId]);
    expect(audit.rows).toEqual([{ actor: expect.objectContaining({ id: person.operatorId }), after: expect.objectContaining({ name: 'laptop CLI', operatorId: person.operatorId }) }]);

    expect(await withSession(person, 'POST', '/api/v1/personal-tokens', { name: 'too long', lifetimeDays: 91 })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await withSession(person, 'POST', '/api/v1/personal-tokens', { name: '', lifetimeDays: 0 })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await stand.call('POST', '/api/v1/personal-tokens', { cookie: person.cookie, body: { name: 'no csrf' } })).toMatchObject({ status: 403, body: { code: 'CON_1005' } });
  });

  test('when the session’s sign-in is older than 15 minutes, then no token is made until the person signs in again, and the refusal is audited', async () => {
    const person = await stand.signedInOperator('Stale Signer', ['viewer']);
    // The sign-in moved 16 minutes into the past: the session's absolute end is what dates it.
    const redis = new Redis(serverUrls().redis);
    try {
      const [key] = await redis.keys(`pwa-test:backoffice_personal_tokens:*backoffice:session:${sessionIdHash(person.cookie.split('=')[1] ?? '')}`);
      expect(key).toBeDefined();
      const expiresAtMs = Number(await redis.hget(key ?? '', 'expiresAtMs'));
      await redis.hset(key ?? '', 'expiresAtMs', String(expiresAtMs - 16 * 60_000));
    } finally {
      redis.disconnect();
    }
    const refused = await withSession(person, 'POST', '/api/v1/personal-tokens', { name: 'too late' });
    expect(refused).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(refused.body.message).toContain('15 minutes');
    expect(await withSession(person, 'GET', '/api/v1/personal-tokens')).toMatchObject({ status: 200, body: { data: { tokens: [] } } });
    const audit = await stand.database.pool.query<{ outcome: string }>(`SELECT outcome FROM audit_log WHERE action = 'personal_token.create' AND actor->>'id' = $1`, [person.operatorId]);
    expect(audit.rows).toEqual([{ outcome: 'refused' }]);
  });

  test('when the CLI calls with a maker’s token, then it reads and asks for a four-eyes change as that person, never approves its own request, and each call is audited as through the token', async () => {
    const makerChecker = await stand.signedInOperator('Token Maker Checker', ['maker', 'checker']);
    const checker = await stand.signedInOperator('Token Checker', ['checker']);
    const makerToken = await newToken(makerChecker);
    const checkerToken = await newToken(checker);

    expect(await withToken(makerToken.secret, 'GET', '/api/v1/approval-requests?status=pending')).toMatchObject({ status: 200, body: { success: true } });
    const requestId = await fundingRequestBy((method, path, options) => withToken(makerToken.secret, method, path, options));
    const request = await stand.database.pool.query<{ maker_id: string }>(`SELECT maker_id FROM approval_requests WHERE id = $1`, [requestId]);
    expect(request.rows).toEqual([{ maker_id: makerChecker.operatorId }]);

    expect(await withToken(makerToken.secret, 'POST', `/api/v1/approval-requests/${requestId}/approve`, { body: {} })).toMatchObject({ status: 403, body: { code: 'CON_3002' } });
    const approved = await withToken(checkerToken.secret, 'POST', `/api/v1/approval-requests/${requestId}/approve`, { body: {} });
    expect(approved).toMatchObject({ status: 200, body: { data: { status: 'approved' } } });
    const decided = await stand.database.pool.query<{ checker_id: string }>(`SELECT checker_id FROM approval_requests WHERE id = $1`, [requestId]);
    expect(decided.rows).toEqual([{ checker_id: checker.operatorId }]);

    const uses = await stand.database.pool.query<{ actor: { kind: string; id: string }; target: { id: string }; after: { via: string; endpoint: string } }>(
      `SELECT actor, target, after FROM audit_log WHERE action = 'personal_token.use' AND target->>'id' = ANY($1) ORDER BY sequence`,
      [[makerToken.tokenId, checkerToken.tokenId]],
    );
    expect(uses.rows.map((row) => [row.actor.id, row.target.id, row.after.via, row.after.endpoint])).toEqual([
      [makerChecker.operatorId, makerToken.tokenId, 'personal-token', 'GET /api/v1/approval-requests'],
      [makerChecker.operatorId, makerToken.tokenId, 'personal-token', 'POST /api/v1/approval-requests'],
      [makerChecker.operatorId, makerToken.tokenId, 'personal-token', `POST /api/v1/approval-requests/${requestId}/approve`],
      [checker.operatorId, checkerToken.tokenId, 'personal-token', `POST /api/v1/approval-requests/${requestId}/approve`],
    ]);
    const used = await withSession(makerChecker, 'GET', '/api/v1/personal-tokens');
    expect((used.body.data?.tokens as { lastUsedAt: string | null }[])[0]?.lastUsedAt).not.toBeNull();
  });

  test('when a token is revoked, expired, or its person disabled, then it answers 401 CON_1004 alike; only its owner or an admin revokes it', async () => {
    const person = await stand.signedInOperator('Token Viewer', ['viewer']);
    const other = await stand.signedInOperator('Other Viewer', ['viewer']);
    const revoked = await newToken(person, 'to revoke');
    const expired = await newToken(person, 'to expire', 1);
    const disabledLater = await newToken(person, 'until disabled');
    for (const token of [revoked, expired, disabledLater]) expect((await withToken(token.secret, 'GET', '/api/v1/approval-requests')).status).toBe(200);

    expect(await withSession(other, 'DELETE', `/api/v1/personal-tokens/${revoked.tokenId}`)).toMatchObject({ status: 404, body: { code: 'CON_4012' } });
    expect(await withToken(revoked.secret, 'DELETE', `/api/v1/personal-tokens/${revoked.tokenId}`)).toMatchObject({ status: 204 });
    expect(await withToken(revoked.secret, 'GET', '/api/v1/approval-requests')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await withSession(person, 'DELETE', `/api/v1/personal-tokens/${revoked.tokenId}`)).toMatchObject({ status: 404, body: { code: 'CON_4012' } });

    await stand.database.pool.query(`UPDATE operator_personal_tokens SET created_at = now() - interval '2 days', expires_at = now() - interval '1 day' WHERE id = $1`, [expired.tokenId]);
    const expiredAnswer = await withToken(expired.secret, 'GET', '/api/v1/approval-requests');
    expect(expiredAnswer).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    const unknownAnswer = await withToken(`pwabo_${'A'.repeat(43)}`, 'GET', '/api/v1/approval-requests');
    expect(unknownAnswer.body).toEqual(expiredAnswer.body);
    expect(await withToken('not-a-token', 'GET', '/api/v1/approval-requests')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await stand.call('GET', '/api/v1/approval-requests', { origin: null, headers: { authorization: `Basic ${disabledLater.secret}` } })).toMatchObject({ status: 401, body: { code: 'CON_1004' } });

    expect(await withSession(admin, 'POST', `/api/v1/operators/${person.operatorId}/disable`)).toMatchObject({ status: 200 });
    expect(await withToken(disabledLater.secret, 'GET', '/api/v1/approval-requests')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    const listed = await stand.database.pool.query<{ id: string; revoked_by: string | null }>(`SELECT id, revoked_by FROM operator_personal_tokens WHERE operator_id = $1 ORDER BY name`, [person.operatorId]);
    expect(listed.rows).toEqual([
      { id: expired.tokenId, revoked_by: null },
      { id: revoked.tokenId, revoked_by: person.operatorId },
      { id: disabledLater.tokenId, revoked_by: admin.operatorId },
    ]);

    const adminRevokes = await stand.signedInOperator('Revoked By Admin', ['viewer']);
    const token = await newToken(adminRevokes);
    expect(await withSession(admin, 'DELETE', `/api/v1/personal-tokens/${token.tokenId}`)).toMatchObject({ status: 204 });
    expect(await withToken(token.secret, 'GET', '/api/v1/approval-requests')).toMatchObject({ status: 401 });
    const revokes = await stand.database.pool.query<{ actor: { id: string }; outcome: string }>(`SELECT actor, outcome FROM audit_log WHERE action = 'personal_token.revoke' AND target->>'id' = $1 ORDER BY sequence`, [token.tokenId]);
    expect(revokes.rows).toEqual([{ actor: expect.objectContaining({ id: admin.operatorId }), outcome: 'done' }]);
  });

  test('when a person’s roles change, then a token acts with the roles read at each call, and a change made by an admin ends the token', async () => {
    const person = await stand.signedInOperator('Promoted Viewer', ['viewer']);
    const token = await newToken(person);
    const fund = { action: 'partner.fund', target: { kind: 'partner', id: await stand.newPartnerId() }, parameters: { currency: 'USD', amountMinor: '100' }, reason: 'Wire' };
    expect(await withToken(token.secret, 'POST', '/api/v1/approval-requests', { body: fund })).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    // The roles are not copied into the token: the database's current roles decide each call.
    await replaceOperatorRoles(stand.database.pool, person.operatorId, ['maker']);
    expect(await withToken(token.secret, 'POST', '/api/v1/approval-requests', { body: fund })).toMatchObject({ status: 201 });

    expect(await withSession(admin, 'PUT', `/api/v1/operators/${person.operatorId}/roles`, { roles: ['viewer'] })).toMatchObject({ status: 200 });
    expect(await withToken(token.secret, 'GET', '/api/v1/approval-requests')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    const revokes = await stand.database.pool.query<{ after: unknown }>(`SELECT after FROM audit_log WHERE action = 'personal_token.revoke' AND target->>'id' = $1`, [token.tokenId]);
    expect(revokes.rows).toEqual([{ after: { revoked: true, because: 'the roles changed' } }]);
  });

  test('when a token is sent with a session cookie, or to a session-only route, then it is refused; an admin’s token still manages operators', async () => {
    const person = await stand.signedInOperator('Session Only', ['maker']);
    const token = await newToken(person);
    expect(await stand.call('GET', '/api/v1/approval-requests', { cookie: person.cookie, headers: { authorization: `Bearer ${token.secret}` } })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await withToken(token.secret, 'POST', '/api/v1/personal-tokens', { body: { name: 'a token from a token' } })).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await withToken(token.secret, 'GET', '/api/v1/passkeys')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await withToken(token.secret, 'POST', '/api/v1/passkeys/registration-options', { body: {} })).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await withToken(token.secret, 'GET', '/api/v1/session')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await withToken(token.secret, 'DELETE', '/api/v1/session')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await withToken(token.secret, 'POST', '/api/v1/setup/complete', { body: { token: 'x', password: 'y', enrolment: 'z', code: '123456' } })).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect((await stand.database.pool.query(`SELECT 1 FROM operator_personal_tokens WHERE operator_id = $1`, [person.operatorId])).rowCount).toBe(1);
    // The session still works as before, with its CSRF rule.
    expect(await withSession(person, 'GET', '/api/v1/session')).toMatchObject({ status: 200 });

    const adminToken = await newToken(admin);
    expect(await withToken(adminToken.secret, 'GET', '/api/v1/operators')).toMatchObject({ status: 200 });
    expect(await withToken(adminToken.secret, 'GET', '/api/v1/audit-log?action=personal_token')).toMatchObject({ status: 200 });
  });

  test('when tokens were made, used and refused, then no token is in any log line or audit entry', async () => {
    expect(secretsSeen.length).toBeGreaterThanOrEqual(8);
    const logged = captured.text();
    expect(logged).toContain('listening');
    const audit = await stand.database.pool.query<{ dump: string }>(`SELECT row_to_json(a)::text AS dump FROM audit_log a`);
    const audited = audit.rows.map((row) => row.dump).join('\n');
    expect(audited).toContain('personal_token.use');
    for (const secret of secretsSeen) {
      const shown = `${secret.slice(0, 8)}…`;
      expect({ secret: shown, inLog: logged.includes(secret), inAudit: audited.includes(secret), secretPartInLog: logged.includes(secret.slice(6)) }).toEqual({ secret: shown, inLog: false, inAudit: false, secretPartInLog: false });
    }
  });
});
