import { execFile } from 'node:child_process';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { dropDatabase, ensureDatabase } from '@pwa/db';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

const run = promisify(execFile);
const cliPath = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');
const databaseUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_cli_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return url.toString();
})();

async function operator(...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [cliPath, ...args, '--json'], {
      env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, ENVIRONMENT: 'sandbox', LOG_LEVEL: 'silent' },
    });
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
  await dropDatabase(databaseUrl);
});

describe('operator CLI (built)', () => {
  it('when a partner is onboarded, then the secret is printed once and never again', async () => {
    const onboarded = await operator('onboard', '--name', 'Acme Shop', '--permissions', 'collection', '--rate-limit', '120');
    expect(onboarded.code).toBe(0);
    expect(onboarded.json).toMatchObject({ name: 'Acme Shop', status: 'active', permissions: ['collection'], rateLimitPerMinute: 120 });
    expect(onboarded.json.clientSecret).toMatch(/^pwsk_sandbox_/);

    const shown = await operator('show-partner', onboarded.json.clientId);
    expect(shown.json).toMatchObject({ clientId: onboarded.json.clientId, name: 'Acme Shop' });
    expect(shown.json).not.toHaveProperty('clientSecret');
    const listed = await operator('list-partners');
    expect(JSON.stringify(listed.json)).not.toContain(onboarded.json.clientSecret);
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
