import { startConsoleStand, type ConsoleStand, type SignedInOperator } from '../support/console-stand';

/** Admins manage people over the console API: invitations with a one-time link, role changes and disables that end the person's sessions at once, never the last admin. */
let stand: ConsoleStand;
let admin: SignedInOperator;
let checker: SignedInOperator;

beforeAll(async () => {
  stand = await startConsoleStand('backoffice_operators_api');
  admin = await stand.signedInOperator('People Admin', ['admin']);
  checker = await stand.signedInOperator('People Checker', ['checker']);
});

afterAll(async () => {
  await stand?.stop();
});

const asAdmin = (method: string, path: string, body?: unknown) => stand.call(method, path, { cookie: admin.cookie, csrf: admin.csrf, ...(body === undefined ? {} : { body }) });

describe('operators managed by admins', () => {
  test('when an admin invites a person, then the answer shows the set-up link once, the person is invited, and neither the link nor its token is in the audit log', async () => {
    const invited = await asAdmin('POST', '/api/v1/operators', { email: 'New.Maker@Operator.example', displayName: 'New Maker', roles: ['maker'] });
    expect(invited).toMatchObject({ status: 201, body: { data: { operator: { email: 'new.maker@operator.example', roles: ['maker'], status: 'invited', createdBy: admin.operatorId } } } });
    const setupLink = String(invited.body.data?.setupLink);
    expect(setupLink).toMatch(/^https:\/\/backoffice\.internal\.example\/setup#token=[A-Za-z0-9_-]{43}$/);
    const token = setupLink.split('#token=')[1] ?? '';
    const audit = await stand.database.pool.query<{ dump: string }>(`SELECT row_to_json(a)::text AS dump FROM audit_log a WHERE action = 'operator.invite'`);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]?.dump).not.toContain(token);
    expect(await asAdmin('POST', '/api/v1/operators', { email: 'new.maker@operator.example', displayName: 'Again', roles: ['viewer'] })).toMatchObject({ status: 409, body: { code: 'CON_4004' } });
    const list = await asAdmin('GET', '/api/v1/operators');
    expect((list.body.data?.operators as { email: string }[]).map((operator) => operator.email)).toContain('new.maker@operator.example');
  });

  test('when a checker tries to invite, list, change roles or disable, then each is refused 403', async () => {
    const asChecker = (method: string, path: string, body?: unknown) => stand.call(method, path, { cookie: checker.cookie, csrf: checker.csrf, ...(body === undefined ? {} : { body }) });
    expect(await asChecker('POST', '/api/v1/operators', { email: 'x@operator.example', displayName: 'X', roles: ['admin'] })).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect(await asChecker('GET', '/api/v1/operators')).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect(await asChecker('PUT', `/api/v1/operators/${checker.operatorId}/roles`, { roles: ['admin'] })).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect(await asChecker('POST', `/api/v1/operators/${admin.operatorId}/disable`)).toMatchObject({ status: 403, body: { code: 'CON_3001' } });
    expect((await stand.call('GET', '/api/v1/session', { cookie: checker.cookie })).body.data).toMatchObject({ operator: { roles: ['checker'] } });
  });

  test('when an admin changes a person’s roles, then the person’s sessions end at once and the change is audited with the roles before and after', async () => {
    const person = await stand.signedInOperator('Role Changer', ['viewer']);
    const changed = await asAdmin('PUT', `/api/v1/operators/${person.operatorId}/roles`, { roles: ['maker', 'checker'] });
    expect(changed).toMatchObject({ status: 200, body: { data: { operator: { roles: ['maker', 'checker'] }, sessionsRevoked: 1 } } });
    expect(await stand.call('GET', '/api/v1/session', { cookie: person.cookie })).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    const audit = await stand.database.pool.query<{ before: unknown; after: unknown }>(`SELECT before, after FROM audit_log WHERE action = 'operator.roles.change' AND target->>'id' = $1`, [person.operatorId]);
    expect(audit.rows).toEqual([{ before: { roles: ['viewer'] }, after: { roles: ['maker', 'checker'] } }]);
  });

  test('when an admin disables a person, then their sessions end and they cannot sign in; an admin cannot disable themselves or demote the last admin', async () => {
    const person = await stand.signedInOperator('Leaving Person', ['maker']);
    expect(await asAdmin('POST', `/api/v1/operators/${person.operatorId}/disable`)).toMatchObject({ status: 200, body: { data: { operator: { status: 'disabled' }, sessionsRevoked: 1 } } });
    expect(await stand.call('GET', '/api/v1/session', { cookie: person.cookie })).toMatchObject({ status: 401 });
    expect(await stand.call('POST', '/api/v1/session', { body: { email: person.email, password: 'Leaving Person has a long enough passphrase' } })).toMatchObject({ status: 401, body: { code: 'CON_1001' } });
    expect(await asAdmin('POST', `/api/v1/operators/${admin.operatorId}/disable`)).toMatchObject({ status: 403, body: { code: 'CON_3003' } });
    expect(await asAdmin('PUT', `/api/v1/operators/${admin.operatorId}/roles`, { roles: ['viewer'] })).toMatchObject({ status: 409, body: { code: 'CON_4006' } });
    expect(await asAdmin('POST', `/api/v1/operators/${person.operatorId}/disable`)).toMatchObject({ status: 404, body: { code: 'CON_4005' } });
  });

  test('when the input is malformed, then it is refused 400 CON_2001 and nothing changes', async () => {
    for (const body of [{ email: 'not-an-address', displayName: 'X', roles: ['maker'] }, { email: 'a@operator.example', displayName: '', roles: ['maker'] }, { email: 'a@operator.example', displayName: 'A', roles: [] }, { email: 'a@operator.example', displayName: 'A', roles: ['root'] }, { email: 'a@operator.example', displayName: 'A', roles: ['maker', 'maker'] }]) {
      expect({ body, code: (await asAdmin('POST', '/api/v1/operators', body)).body.code }).toEqual({ body, code: 'CON_2001' });
    }
    expect(await asAdmin('PUT', '/api/v1/operators/not-a-uuid/roles', { roles: ['maker'] })).toMatchObject({ status: 404, body: { code: 'CON_4005' } });
    expect((await stand.database.pool.query(`SELECT 1 FROM operators WHERE email = 'a@operator.example'`)).rowCount).toBe(0);
  });
  test('when the two admins demote each other at once, then exactly one demotion stands and one active admin remains (this test runs last)', async () => {
    const second = await stand.signedInOperator('Second Admin', ['admin']);
    const answers = await Promise.all([
      asAdmin('PUT', `/api/v1/operators/${second.operatorId}/roles`, { roles: ['viewer'] }),
      stand.call('PUT', `/api/v1/operators/${admin.operatorId}/roles`, { cookie: second.cookie, csrf: second.csrf, body: { roles: ['viewer'] } }),
    ]);
    expect(answers.map((answer) => answer.status).filter((status) => status === 200)).toHaveLength(1);
    expect(answers.every((answer) => [200, 401, 403, 409].includes(answer.status))).toBe(true);
    const admins = await stand.database.pool.query(`SELECT 1 FROM operators WHERE status = 'active' AND 'admin' = ANY (roles)`);
    expect(admins.rowCount).toBe(1);
  });
});
