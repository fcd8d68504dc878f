import { execFile } from 'node:child_process';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { dropDatabase, ensureDatabase } from '@pwa/db';
import { BatchedOperator, type OperatorAnswer } from '../../../../test/support/batched-operator';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

const run = promisify(execFile);
const cliPath = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');
const databaseUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_cli_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return url.toString();
})();

const webhookSecretSealingKey = randomBytes(32).toString('base64');
const cliEnv = { PATH: process.env.PATH, DATABASE_URL: databaseUrl, ENVIRONMENT: 'sandbox', LOG_LEVEL: 'silent', WEBHOOK_SECRET_SEALING_KEY: webhookSecretSealingKey };

// The commands with the usual settings run in one batch process (test/support/batched-operator.ts);
// other settings, and a command whose stderr notice is asserted, start a process each.
const sandboxBatch = new BatchedOperator('auth', () => cliEnv);
const operator = (...args: string[]): Promise<OperatorAnswer> => sandboxBatch.run(...args);

async function operatorWith(env: Record<string, string | undefined>, ...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [cliPath, ...args, '--json'], { env });
    return { code: 0, json: JSON.parse(stdout), stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, json: JSON.parse(failed.stdout), stderr: failed.stderr };
  }
}

beforeAll(async () => {
  await ensureDatabase(databaseUrl);
});

afterAll(async () => {
  await sandboxBatch.close();
  await dropDatabase(databaseUrl);
});

describe('operator CLI (built)', () => {
  it('when a partner is onboarded, then the secret is printed once and never again', async () => {
    const onboarded = await operator('onboard', '--name', 'Acme Shop', '--permissions', 'collection', '--rate-limit', '120');
    expect(onboarded.code).toBe(0);
    expect(onboarded.json).toMatchObject({ name: 'Acme Shop', status: 'active', permissions: ['collection'], rateLimitPerMinute: 120 });
    expect(onboarded.json.clientSecret).toMatch(/^pwsk_sandbox_/);
    expect(onboarded.json.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const shown = await operator('show-partner', onboarded.json.clientId);
    expect(shown.json).toMatchObject({ clientId: onboarded.json.clientId, name: 'Acme Shop' });
    expect(shown.json).not.toHaveProperty('clientSecret');
    expect(shown.json).not.toHaveProperty('webhookSecret');
    const listed = await operator('list-partners');
    expect(JSON.stringify(listed.json)).not.toContain(onboarded.json.clientSecret);
    expect(JSON.stringify(listed.json)).not.toContain('whsec_');
  });

  it('when the webhook secret is rotated, then the new one is printed once and the old one ends after the overlap', async () => {
    const { json: partner } = await operator('onboard', '--name', 'Delta Hooks');
    const rotated = await operator('rotate-webhook-secret', partner.clientId, '--overlap-hours', '2');
    expect(rotated.code).toBe(0);
    expect(rotated.json).toMatchObject({ clientId: partner.clientId, name: 'Delta Hooks' });
    expect(rotated.json.webhookSecret).toMatch(/^whsec_/);
    expect(rotated.json.webhookSecret).not.toBe(partner.webhookSecret);
    const overlapMs = Date.parse(rotated.json.previousSecretsValidUntil) - Date.now();
    expect(overlapMs).toBeGreaterThan(2 * 3600_000 - 120_000);
    expect(overlapMs).toBeLessThanOrEqual(2 * 3600_000);
    expect(rotated.json).not.toHaveProperty('clientSecret');

    const byDefault = await operator('rotate-webhook-secret', partner.clientId);
    expect(Date.parse(byDefault.json.previousSecretsValidUntil) - Date.now()).toBeGreaterThan(24 * 3600_000 - 120_000);
    expect(JSON.stringify((await operator('show-partner', partner.clientId)).json)).not.toContain('whsec_');
  });

  it('when the sealing key is missing or the overlap is wrong, then no webhook secret is issued', async () => {
    const { json: partner } = await operator('onboard', '--name', 'Epsilon');
    const withoutKey = { ...cliEnv, WEBHOOK_SECRET_SEALING_KEY: undefined };
    const onboardWithoutKey = await operatorWith(withoutKey, 'onboard', '--name', 'Zeta');
    expect(onboardWithoutKey.code).toBe(1);
    expect(onboardWithoutKey.json.error).toContain('WEBHOOK_SECRET_SEALING_KEY');
    const rotateWithoutKey = await operatorWith(withoutKey, 'rotate-webhook-secret', partner.clientId);
    expect(rotateWithoutKey.code).toBe(1);
    expect(rotateWithoutKey.json.error).toContain('WEBHOOK_SECRET_SEALING_KEY');
    // Commands that issue no webhook secret work without the key.
    expect((await operatorWith(withoutKey, 'show-partner', partner.clientId)).code).toBe(0);
    const badOverlap = await operator('rotate-webhook-secret', partner.clientId, '--overlap-hours', '1.5');
    expect(badOverlap.code).toBe(2);
    expect(badOverlap.json.error).toContain('overlap');
    const listed = await operator('list-partners');
    expect(JSON.stringify(listed.json)).not.toContain('Zeta');
  });

  it('when a key rotation command is given no old key, a key instead of a variable name, the new key again or a wrong old key, then it refuses and changes nothing', async () => {
    const otherKey = randomBytes(32).toString('base64');
    const resealEnv = { ...cliEnv, OLD_SEALING_KEY: otherKey, SAME_KEY: webhookSecretSealingKey };
    expect(await operatorWith(resealEnv, 'reseal-webhook-secrets')).toMatchObject({ code: 2, json: { error: expect.stringContaining('--from-key-env') } });
    expect(await operatorWith(resealEnv, 'reseal-webhook-secrets', '--from-key-env', otherKey)).toMatchObject({ code: 2, json: { error: expect.stringContaining('name of an environment variable') } });
    expect(await operatorWith(resealEnv, 'reseal-webhook-secrets', '--from-key-env', 'UNSET_KEY')).toMatchObject({ code: 2, json: { error: 'UNSET_KEY is not set: put the old key in it' } });
    expect(await operatorWith(resealEnv, 'reseal-webhook-secrets', '--from-key-env', 'SAME_KEY')).toMatchObject({ code: 2, json: { error: expect.stringContaining('the same key') } });

    // The stored secrets were sealed under webhookSecretSealingKey: an unrelated "old" key opens none, and nothing changes.
    const partner = await operator('onboard', '--name', 'Rotation Refusal');
    const wrongOld = await operatorWith({ ...cliEnv, WEBHOOK_SECRET_SEALING_KEY: randomBytes(32).toString('base64'), OLD_SEALING_KEY: otherKey }, 'reseal-webhook-secrets', '--from-key-env', 'OLD_SEALING_KEY');
    expect(wrongOld).toMatchObject({ code: 1, json: { error: expect.stringContaining('opens with neither') } });
    expect(wrongOld.json.error).not.toContain(partner.json.webhookSecret);
    expect(await operator('reseal-webhook-secrets', '--from-key-env', 'OLD_SEALING_KEY')).toMatchObject({ code: 2 });
    const keyEncryptionKey = randomBytes(32).toString('base64');
    expect((await operatorWith({ ...cliEnv, AUTH_KEY_ENCRYPTION_KEY: keyEncryptionKey }, 'rotate-signing-key')).code).toBe(0);
    const wrongKek = await operatorWith({ ...cliEnv, AUTH_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'), OLD_KEK: otherKey }, 'reencrypt-signing-keys', '--from-key-env', 'OLD_KEK');
    expect(wrongKek).toMatchObject({ code: 1, json: { error: expect.stringContaining('nothing was changed') } });
    const renewed = await operatorWith({ ...cliEnv, AUTH_KEY_ENCRYPTION_KEY: otherKey, OLD_KEK: keyEncryptionKey }, 'reencrypt-signing-keys', '--from-key-env', 'OLD_KEK');
    expect(renewed).toMatchObject({ code: 0, json: { reencrypted: 1, alreadyUnderNewKey: 0 } });
  });

  it('when the operator changes status, permissions, rate limit and webhook URL, then each is applied', async () => {
    const { json: partner } = await operator('onboard', '--name', 'Beta Pay', '--status', 'pending_activation');
    expect(partner.status).toBe('pending_activation');
    expect((await operator('set-status', partner.clientId, 'active')).json.status).toBe('active');
    expect((await operator('set-permissions', partner.clientId, 'disbursement')).json.permissions).toEqual(['disbursement']);
    expect((await operator('set-rate-limit', partner.clientId, 'default')).json.rateLimitPerMinute).toBeNull();
    expect((await operator('set-webhook-url', partner.clientId, 'https://beta.example/hooks')).json.webhookUrl).toBe(
      'https://beta.example/hooks',
    );
    const rotated = await operator('rotate-secret', partner.clientId);
    expect(rotated.json.clientSecret).not.toBe(partner.clientSecret);
  });

  it('when a direct partner change runs in production without --break-glass, then it exits 2 naming the back-office command and changes nothing; with it, it runs and says so', async () => {
    const { json: partner } = await operator('onboard', '--name', 'Delta Pay');
    const production = { ...cliEnv, ENVIRONMENT: 'production' };
    const refused = await operatorWith(production, 'set-status', partner.clientId, 'suspended');
    expect(refused.code).toBe(2);
    expect(refused.json.error).toContain('backoffice request-status');
    expect(refused.json.error).toContain('--break-glass');
    expect((await operator('show-partner', partner.clientId)).json.status).toBe('active');
    const sandboxRun = await operatorWith(cliEnv, 'set-rate-limit', partner.clientId, '120');
    expect(sandboxRun.stderr).toContain('set-up (sandbox): set-rate-limit writes to the database directly');
    expect(sandboxRun.stderr).toContain('npm run operator -- backoffice request-rate-limit');
    const breakGlass = await operatorWith(production, 'set-status', partner.clientId, 'suspended', '--break-glass', 'INC-4713 partner compromised, back-office down');
    expect(breakGlass.code).toBe(0);
    expect(breakGlass.stderr).toMatch(/BREAK-GLASS by \S+: set-status writes to the database directly.*INC-4713.*backoffice request-status/);
    expect((await operator('show-partner', partner.clientId)).json.status).toBe('suspended');
  });

  it('when the input is wrong, then the command fails with a JSON error and changes nothing', async () => {
    const { json: partner } = await operator('onboard', '--name', 'Gamma');
    const badStatus = await operator('set-status', partner.clientId, 'frozen');
    expect(badStatus.code).toBe(2);
    expect(badStatus.json.error).toContain('Unknown status');
    const unknown = await operator('set-status', randomUUID(), 'suspended');
    expect(unknown.code).toBe(1);
    expect(unknown.json.error).toContain('No partner');
    expect((await operator('show-partner', partner.clientId)).json.status).toBe('active');
  });
});
