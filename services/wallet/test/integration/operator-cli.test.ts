import { execFile, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { dropDatabase, ensureDatabase } from '@pwa/db';
import { OperatorBatch } from '../../../../scripts/lib/operator-batch';
import { BatchedOperator, type OperatorAnswer } from '../../../../test/support/batched-operator';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

const run = promisify(execFile);
const cliPath = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');
const databaseUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_wallet_cli_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return url.toString();
})();

/**
 * The auth service's internal partner lookup as the CLI reads it (GET /internal/partners/:id: 200
 * with the partner's public view, or auth's error envelope with PKC_1009, HTTP 403): the wallet's own tests stand in for auth here;
 * test/e2e/operator-wallet.test.ts runs the CLI against the real auth service.
 */
const knownPartnerIds = new Set<string>();
let authServer: Server;
let authUrl: string;

function knowPartner(): string {
  const partnerId = randomUUID();
  knownPartnerIds.add(partnerId);
  return partnerId;
}

async function operator(environment: 'sandbox' | 'production', ...args: string[]): Promise<{ code: number; json: any }> {
  return operatorWith({ AUTH_URL: authUrl }, environment, ...args);
}

async function operatorWith(extraEnv: Record<string, string>, environment: 'sandbox' | 'production', ...args: string[]): Promise<{ code: number; json: any }> {
  try {
    const { stdout } = await run('node', [cliPath, ...args, '--json'], {
      env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, ENVIRONMENT: environment, LOG_LEVEL: 'silent', ...extraEnv },
    });
    return { code: 0, json: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, json: JSON.parse(failed.stdout) };
  }
}

// The sandbox commands with the usual settings run in one batch process (test/support/batched-operator.ts).
const sandboxBatch = new BatchedOperator('wallet', () => ({ PATH: process.env.PATH, DATABASE_URL: databaseUrl, ENVIRONMENT: 'sandbox', LOG_LEVEL: 'silent', AUTH_URL: authUrl }));
const sandbox = (...args: string[]): Promise<OperatorAnswer> => sandboxBatch.run(...args);

beforeAll(async () => {
  await ensureDatabase(databaseUrl);
  authServer = createServer((req, res) => {
    const partnerId = /^\/internal\/partners\/([^/]+)$/.exec(req.url ?? '')?.[1] ?? '';
    const known = knownPartnerIds.has(partnerId);
    res.writeHead(known ? 200 : 403, { 'content-type': 'application/json' });
    res.end(JSON.stringify(known ? { partnerId, clientId: randomUUID(), name: 'Known Partner', status: 'active', permissions: ['disbursement'], rateLimitPerMinute: null } : { success: false, code: 'PKC_1009', message: 'No such partner' }));
  });
  await new Promise<void>((resolve) => authServer.listen(0, '127.0.0.1', resolve));
  authUrl = `http://127.0.0.1:${(authServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await sandboxBatch.close();
  const ledger = await operator('sandbox', 'check-ledger');
  expect(ledger).toMatchObject({ code: 0, json: { ok: true, problems: [] } });
  await dropDatabase(databaseUrl);
  await new Promise((resolve) => authServer.close(resolve));
});

describe('wallet operator CLI (built)', () => {
  it('when a user is created, updated and shown, then every change is applied and balances are listed per wallet', async () => {
    const created = await sandbox('create-user', '--phone', '0770100001', '--name', 'Jartu Clarke', '--tier', 'silver', '--currencies', 'LRD');
    expect(created).toMatchObject({
      code: 0,
      json: { phone: '+231770100001', name: 'Jartu Clarke', accountStatus: 'active', kycStatus: 'approved', tier: 'Silver', wallets: [{ currency: 'LRD', status: 'active', balance: '0.00' }] },
    });

    const updated = await sandbox('update-user', '+231770100001', '--add-currency', 'USD', '--freeze', 'LRD', '--kyc', 'pending', '--tier', 'Gold', '--name', 'Jartu C.');
    expect(updated.json).toMatchObject({
      name: 'Jartu C.',
      kycStatus: 'pending',
      tier: 'Gold',
      wallets: [
        { currency: 'LRD', status: 'frozen' },
        { currency: 'USD', status: 'active' },
      ],
    });

    await sandbox('update-user', '0770100001', '--unfreeze', 'LRD', '--status', 'suspended');
    const shown = await sandbox('show-user', '0770100001');
    expect(shown.json).toMatchObject({ accountStatus: 'suspended', wallets: [{ currency: 'LRD', status: 'active' }, { currency: 'USD', status: 'active' }] });
  });

  it('when money is credited and a partner funded, then balances show it and the funding account carries the opposite', async () => {
    await sandbox('create-user', '--phone', '0770100002', '--name', 'Kebeh Flomo');
    const credited = await sandbox('credit-wallet', '0770100002', 'LRD', '1500.50');
    expect(credited.json).toMatchObject({ state: 'posted', transactionId: expect.stringMatching(/^TXN-[0-9A-F]{16}$/) });
    expect((await sandbox('show-user', '0770100002')).json.wallets).toEqual([
      { currency: 'LRD', status: 'active', balance: '1500.50' },
      { currency: 'USD', status: 'active', balance: '0.00' },
    ]);

    const partnerId = knowPartner();
    const transferId = randomUUID();
    const funded = await sandbox('fund-partner', partnerId, 'USD', '2500', '--reference', 'bank ref 42', '--transfer-id', transferId);
    const fundedAgain = await sandbox('fund-partner', partnerId, 'USD', '2500', '--reference', 'bank ref 42', '--transfer-id', transferId);
    // The same transfer id again: the first posting, said to be replayed; nothing moved now.
    expect(fundedAgain.json).toEqual({ ...funded.json, replayed: true });
    expect(funded.json.replayed).toBe(false);

    const balances = await sandbox('show-balances', '--partner', partnerId);
    expect(balances.json).toMatchObject({ partners: [{ partnerId, currency: 'USD', balance: '2500.00' }], feeRevenue: { LRD: '0.00', USD: '0.00' } });
    expect(balances.json.funding.USD.startsWith('-')).toBe(true);
  });

  it('when the environment is production, then sandbox tools are refused and nothing is credited', async () => {
    await sandbox('create-user', '--phone', '0770100003', '--name', 'Prod Check');
    const credit = await operator('production', 'credit-wallet', '0770100003', 'USD', '10');
    expect(credit.code).toBe(1);
    expect(credit.json.error).toContain('sandbox');
    const seed = await operator('production', 'seed-sandbox');
    expect(seed.code).toBe(1);
    expect(seed.json.error).toContain('sandbox');
    expect((await sandbox('show-user', '0770100003')).json.wallets[1]).toMatchObject({ currency: 'USD', balance: '0.00' });
    // Funding is the back-office's four-eyes change: in production the direct command is break-glass only.
    const partnerId = knowPartner();
    const refused = await operator('production', 'fund-partner', partnerId, 'LRD', '100');
    expect(refused.code).toBe(2);
    expect(refused.json.error).toContain('backoffice request-funding');
    expect(refused.json.error).toContain('--break-glass');
    expect((await sandbox('show-balances', '--partner', partnerId)).json.partners).toEqual([]);
    const tooShort = await operator('production', 'fund-partner', partnerId, 'LRD', '100', '--break-glass', 'because');
    expect(tooShort.code).toBe(2);
    const funding = await operator('production', 'fund-partner', partnerId, 'LRD', '100', '--break-glass', 'INC-4711 back-office down, partner payroll due');
    expect(funding).toMatchObject({ code: 0, json: { state: 'posted', partner: { name: 'Known Partner', status: 'active' } } });
  });

  it('when a direct change runs in the sandbox or as break-glass, then it says on stderr that it bypasses the back-office and names the audited command', async () => {
    const sandboxRun = await run('node', [cliPath, 'fund-partner', knowPartner(), 'USD', '5', '--json'], { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, ENVIRONMENT: 'sandbox', LOG_LEVEL: 'silent', AUTH_URL: authUrl } });
    expect(sandboxRun.stderr).toContain('set-up (sandbox): fund-partner writes to the database directly');
    expect(sandboxRun.stderr).toContain('npm run operator -- backoffice request-funding');
    expect(JSON.parse(sandboxRun.stdout)).toMatchObject({ state: 'posted' });
    const breakGlass = await run('node', [cliPath, 'set-limit', '--tier', 'Gold', '--type', 'collection', '--currency', 'USD', '--daily', '900', '--break-glass', 'INC-4712 limits too tight', '--json'], {
      env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, ENVIRONMENT: 'production', LOG_LEVEL: 'silent', AUTH_URL: authUrl },
    });
    expect(breakGlass.stderr).toMatch(/^BREAK-GLASS by \S+: set-limit writes to the database directly.*INC-4712 limits too tight.*backoffice request-tier-limit/);
    // A read is no change: no notice.
    const read = await run('node', [cliPath, 'show-limits', '--json'], { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, ENVIRONMENT: 'production', LOG_LEVEL: 'silent', AUTH_URL: authUrl } });
    expect(read.stderr).toBe('');
  });

  it('when fund-partner names a partner id the auth service does not know, or auth cannot be asked, then nothing is posted', async () => {
    const unknown = randomUUID();
    const refused = await sandbox('fund-partner', unknown, 'USD', '100');
    expect(refused).toMatchObject({ code: 1, json: { error: expect.stringContaining(`knows no partner ${unknown}`) } });
    const withoutAuth = await operatorWith({}, 'sandbox', 'fund-partner', knowPartner(), 'USD', '100');
    expect(withoutAuth).toMatchObject({ code: 1, json: { error: expect.stringContaining('set AUTH_URL') } });
    const authDown = await operatorWith({ AUTH_URL: 'http://127.0.0.1:9' }, 'sandbox', 'fund-partner', knowPartner(), 'USD', '100');
    expect(authDown).toMatchObject({ code: 1, json: { error: expect.stringContaining('did not answer') } });
    expect((await sandbox('show-balances', '--partner', unknown)).json.partners).toEqual([]);
  });

  it('when a wallet is closed and reopened, then it leaves and rejoins the user on the same account; one holding money is refused', async () => {
    await sandbox('create-user', '--phone', '0770100009', '--name', 'Siah Tarr');
    await sandbox('credit-wallet', '0770100009', 'LRD', '12.50');
    const withMoney = await sandbox('update-user', '0770100009', '--close-wallet', 'LRD');
    expect(withMoney).toMatchObject({ code: 1, json: { error: expect.stringContaining('it holds 12.50 LRD') } });

    const closed = await sandbox('update-user', '0770100009', '--close-wallet', 'USD');
    expect(closed).toMatchObject({ code: 0, json: { wallets: [{ currency: 'LRD', balance: '12.50' }], closedWallets: [{ currency: 'USD' }] } });
    expect(closed.json.wallets).toHaveLength(1);
    expect((await sandbox('update-user', '0770100009', '--close-wallet', 'USD')).code).toBe(0);
    expect(await sandbox('credit-wallet', '0770100009', 'USD', '1')).toMatchObject({ code: 1, json: { error: expect.stringContaining('has no USD wallet') } });
    expect(await sandbox('update-user', '0770100009', '--freeze', 'USD')).toMatchObject({ code: 1, json: { error: expect.stringContaining('is closed') } });
    expect(await sandbox('update-user', '0770100009', '--add-currency', 'USD')).toMatchObject({ code: 1, json: { error: expect.stringContaining('--reopen-wallet USD') } });
    expect(await sandbox('update-user', '0770100009', '--close-wallet', 'USD', '--reopen-wallet', 'USD')).toMatchObject({ code: 1 });

    const reopened = await sandbox('update-user', '0770100009', '--reopen-wallet', 'USD');
    expect(reopened).toMatchObject({ code: 0, json: { wallets: [{ currency: 'LRD' }, { currency: 'USD', status: 'active', balance: '0.00' }], closedWallets: [] } });
    expect((await sandbox('credit-wallet', '0770100009', 'USD', '1')).code).toBe(0);
  });

  it('when limits are shown and one is changed, then the new value applies and a never-binding limit is warned about', async () => {
    const shown = await sandbox('show-limits', '--tier', 'Basic');
    expect(shown.json.limits).toHaveLength(4);
    expect(shown.json.limits[0]).toEqual({
      tier: 'Basic',
      transactionType: 'collection',
      currency: 'LRD',
      perTransaction: '18500.00',
      daily: '37000.00',
      weekly: '92500.00',
      monthly: '185000.00',
      yearly: '925000.00',
      perHourCount: 5,
      perDayCount: 10,
    });
    const changed = await sandbox('set-limit', '--tier', 'Basic', '--type', 'collection', '--currency', 'USD', '--daily', '150.50', '--per-hour-count', '3');
    expect(changed.json).toMatchObject({ daily: '150.50', perHourCount: 3, warnings: [] });
    const odd = await sandbox('set-limit', '--tier', 'Basic', '--type', 'collection', '--currency', 'USD', '--weekly', '100');
    expect(odd.json.warnings).toEqual(['the daily limit exceeds the weekly limit, so it never applies']);
  });

  it('when the sandbox is seeded twice, then the documented users exist once with their opening balances credited once', async () => {
    const partnerId = randomUUID();
    const first = await sandbox('seed-sandbox', '--partner', partnerId);
    expect(first.code).toBe(0);
    expect(first.json.users.map((user: { phone: string }) => user.phone)).toEqual([
      '+231770000001',
      '+231770000002',
      '+231770000003',
      '+231770000004',
      '+231770000005',
      '+231770000006',
      '+231770000007',
      '+231880000008',
      // Auto-resolving collection test users (services/collections/README.md).
      '+231770000011',
      '+231770000012',
      '+231770000013',
      '+231770000014',
    ]);
    await sandbox('update-user', '0770000002', '--status', 'active');
    const second = await sandbox('seed-sandbox', '--partner', partnerId);
    expect(second.json.users.every((user: { created: boolean }) => !user.created)).toBe(true);
    const gold = await sandbox('show-user', '0770000001');
    expect(gold.json).toMatchObject({ tier: 'Gold', wallets: [{ currency: 'LRD', balance: '500000.00' }, { currency: 'USD', balance: '5000.00' }] });
    expect((await sandbox('show-user', '0770000002')).json.accountStatus).toBe('suspended');
    expect((await sandbox('show-user', '0770000005')).json.wallets).toMatchObject([{ currency: 'LRD', status: 'active' }, { currency: 'USD', status: 'frozen' }]);
    expect((await sandbox('show-user', '0770000006')).json.wallets).toHaveLength(1);
    expect((await sandbox('show-balances', '--partner', partnerId)).json.partners).toEqual([
      { partnerId, currency: 'LRD', balance: '1000000.00' },
      { partnerId, currency: 'USD', balance: '10000.00' },
    ]);
  });

  it('when the input is wrong, then the command fails with a JSON error and a usage exit code', async () => {
    expect(await sandbox('create-user', '--phone', '12345', '--name', 'X')).toMatchObject({ code: 2, json: { error: expect.stringContaining('Liberian') } });
    expect(await sandbox('credit-wallet', '0770100002', 'LRD', '1.005')).toMatchObject({ code: 2, json: { error: expect.stringContaining('Not an amount') } });
    expect(await sandbox('set-limit', '--tier', 'Diamond', '--type', 'collection', '--currency', 'LRD', '--daily', '1')).toMatchObject({ code: 2 });
    expect(await sandbox('show-user', '0779999999')).toMatchObject({ code: 1, json: { error: expect.stringContaining('No user') } });
    expect(await sandbox('create-user', '--phone', '0770100002', '--name', 'Again')).toMatchObject({ code: 1, json: { error: expect.stringContaining('exists') } });
    expect(await sandbox('update-user', '0770100002', '--freeze', 'LRD', '--unfreeze', 'LRD')).toMatchObject({ code: 1 });
    expect(await sandbox('no-such-command')).toMatchObject({ code: 2, json: { error: 'Unknown command: no-such-command' } });
    expect(await sandbox('show-user', '--colour', 'red')).toMatchObject({ code: 2, json: { error: expect.stringContaining('--colour') } });
  });

  it('when the ledger is checked, then it reports ok with totals per currency', async () => {
    const checked = await sandbox('check-ledger');
    expect(checked).toMatchObject({ code: 0, json: { ok: true, problems: [] } });
    expect(checked.json.currencies).toHaveLength(2);
  });

  it('when commands run in one batch process, then each answers what it would alone, in order, and a bad line does not stop the batch', async () => {
    const batch = new OperatorBatch('wallet', { PATH: process.env.PATH, DATABASE_URL: databaseUrl, ENVIRONMENT: 'sandbox', LOG_LEVEL: 'silent', AUTH_URL: authUrl });
    try {
      const [created, credited, shown] = await Promise.all([
        batch.run(['create-user', '--phone', '0770100019', '--name', 'Batch User', '--currencies', 'LRD']),
        batch.run(['credit-wallet', '0770100019', 'LRD', '25.00']),
        batch.run(['show-user', '0770100019']),
      ]);
      expect(created).toMatchObject({ exitCode: 0, json: { phone: '+231770100019', name: 'Batch User' } });
      expect(credited).toMatchObject({ exitCode: 0, json: { state: 'posted' } });
      expect(shown).toMatchObject({ exitCode: 0, json: { wallets: [{ currency: 'LRD', balance: '25.00' }] } });
      expect(await batch.run(['credit-wallet', '0770100019', 'LRD', '1.005'])).toMatchObject({ exitCode: 2, json: { error: expect.stringContaining('Not an amount') } });
      expect(await batch.run(['show-user', '0779999998'])).toMatchObject({ exitCode: 1, json: { error: expect.stringContaining('No user') } });
      expect(await batch.run(['no-such-command'])).toMatchObject({ exitCode: 2, json: { error: 'Unknown command: no-such-command' } });
      expect(await batch.run(['batch'])).toMatchObject({ exitCode: 2, json: { error: expect.stringContaining('not help or batch') } });
      expect(await batch.run(['show-user', '--colour', 'red'])).toMatchObject({ exitCode: 2, json: { error: expect.stringContaining('--colour') } });
      expect(await batch.run(['show-user', '0770100019'])).toMatchObject({ exitCode: 0, json: { name: 'Batch User' } });
    } finally {
      await batch.close();
    }
  });

  it('when a batch line is not a JSON array of strings, then it answers exit code 2 and the next line still runs', async () => {
    const { stdout } = await runWithInput(cliPath, ['batch', '--json'], '{"not":"an array"}\n["show-user", 7]\n\n["check-ledger"]\n');
    const answers = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(answers).toEqual([
      { exitCode: 2, output: { error: expect.stringContaining('JSON array of strings') } },
      { exitCode: 2, output: { error: expect.stringContaining('JSON array of strings') } },
      { exitCode: 0, output: expect.objectContaining({ ok: true, problems: [] }) },
    ]);
  });
});

function runWithInput(entry: string, args: string[], input: string): Promise<{ stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, ENVIRONMENT: 'sandbox', LOG_LEVEL: 'silent', AUTH_URL: authUrl } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ stdout, code }));
    child.stdin.end(input);
  });
}
