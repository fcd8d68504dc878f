import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createPool, databaseUrlForRole, dropDatabase, ensureDatabase, migrate, provisionServiceRoles, type Pool } from '@pwa/db';
import { backofficeMigrationDirectories, backofficeSchema } from '../../src/service-paths';
import { linkOidcSubject, operatorIdLinkedTo } from '../../src/store/oidc-link-store';
import { insertOperator } from '../../src/store/operator-store';
import { operatorPasskeys } from '../../src/store/passkey-store';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

/**
 * The passkey and identity-provider tables under least privilege (decision 0044): the migration
 * runs as the schema's owner, the service as its runtime role, which reads, adds, updates and
 * removes rows of both tables through the owner's default privileges, and runs no DDL on them.
 */
const adminUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_backoffice_grants_${randomBytes(6).toString('hex')}`;
  return url.toString();
})();
const suffix = randomBytes(3).toString('hex');
const roles = { owner: `pwa_bogrants_${suffix}_own`, runtime: `pwa_bogrants_${suffix}_rt` };
let runtime: Pool;

beforeAll(async () => {
  await ensureDatabase(adminUrl);
  await provisionServiceRoles({ adminUrl, services: [{ service: 'backoffice', schema: backofficeSchema, roles }] });
  await migrate({ databaseUrl: databaseUrlForRole(adminUrl, roles.owner), schema: backofficeSchema, directories: [...backofficeMigrationDirectories] });
  runtime = createPool({ connectionString: databaseUrlForRole(adminUrl, roles.runtime), applicationName: 'backoffice-grants-test', schema: backofficeSchema, maxConnections: 2 });
});

afterAll(async () => {
  await runtime?.end();
  await dropDatabase(adminUrl);
  const admin = new Client({ connectionString: serverUrls().postgres });
  await admin.connect();
  for (const role of Object.values(roles)) await admin.query(`DROP ROLE IF EXISTS ${role}`);
  await admin.end();
});

describe('the passkey and identity-provider tables under the runtime role', () => {
  test('when the service runs as its runtime role, then it adds, reads, updates and removes passkeys and links, and cannot alter or truncate them', async () => {
    const operator = await insertOperator(runtime, { operatorId: randomUUID(), email: `grants.${suffix}@operator.example`, displayName: 'Grants', roles: ['viewer'], createdBy: null });
    const passkeyId = randomUUID();
    const credentialId = randomBytes(32).toString('base64url');
    expect(await operatorPasskeys.insertPasskey(runtime, { passkeyId, personId: operator.operatorId, credentialId, publicKey: new Uint8Array(randomBytes(77)), signCount: 0, transports: ['usb'], name: 'Key', deviceType: 'singleDevice', backedUp: false })).toBe(true);
    // The same credential id again, for anyone: refused by the UNIQUE, not stored twice.
    expect(await operatorPasskeys.insertPasskey(runtime, { passkeyId: randomUUID(), personId: operator.operatorId, credentialId, publicKey: new Uint8Array(randomBytes(77)), signCount: 0, transports: [], name: 'Copy', deviceType: 'singleDevice', backedUp: false })).toBe(false);
    expect(await operatorPasskeys.recordPasskeyUse(runtime, passkeyId, 0, 3)).toBe(true);
    expect(await operatorPasskeys.recordPasskeyUse(runtime, passkeyId, 0, 4)).toBe(false);
    expect(await operatorPasskeys.recordPasskeyUse(runtime, passkeyId, 3, 3)).toBe(false);
    expect((await operatorPasskeys.passkeysOf(runtime, operator.operatorId)).map((passkey) => passkey.lastUsedAt)).toEqual([expect.any(Date)]);
    expect(await linkOidcSubject(runtime, { issuer: 'https://idp.example', subject: 'sub-1', operatorId: operator.operatorId })).toBe(true);
    expect(await linkOidcSubject(runtime, { issuer: 'https://idp.example', subject: 'sub-2', operatorId: operator.operatorId })).toBe(false);
    expect(await operatorIdLinkedTo(runtime, 'https://idp.example', 'sub-1')).toBe(operator.operatorId);
    expect(await operatorPasskeys.deletePasskey(runtime, operator.operatorId, passkeyId)).toEqual({ credentialId, name: 'Key' });
    await runtime.query(`DELETE FROM operator_oidc_links WHERE subject = 'sub-1'`);
    await expect(runtime.query(`ALTER TABLE operator_passkeys ADD COLUMN note text`)).rejects.toMatchObject({ code: '42501' });
    await expect(runtime.query(`TRUNCATE operator_oidc_links`)).rejects.toMatchObject({ code: '42501' });
  });
});
