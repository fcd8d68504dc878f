import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ConsoleHttpsClient } from '../support/https-client';
import { ledgerBalances } from '../support/ledger-balances';
import { onboardPartner } from '../support/partners';
import { repoRoot, startBackofficeStack, type BackofficeStack } from '../support/stack';

/**
 * The operator CLI as a client of the back-office API (issue 27, decision 0072): each person makes
 * a personal token in the console, and `npm run operator -- backoffice …` acts as that person with
 * their roles and four-eyes rules: a maker's funding request, refused to its own maker, approved by
 * a checker, moving the partner's balance once; a revoked token refused; the token in no output.
 */
const runFile = promisify(execFile);

interface CliRun {
  code: number;
  json: Record<string, unknown>;
  stdout: string;
  output: string;
}

describe('the operator CLI through the back-office', () => {
  let stack: BackofficeStack;
  let caFile: string;
  const outputs: string[] = [];

  // Two people for both tests (seeding waits for fresh TOTP steps): the maker is a checker too, so
  // refusing their own approval is the four-eyes rule (CON_3002), not a missing role.
  let maker: Awaited<ReturnType<BackofficeStack['backoffice']['seedOperator']>>;
  let checker: typeof maker;
  let makerSession: ConsoleHttpsClient;
  let checkerSession: ConsoleHttpsClient;

  beforeAll(async () => {
    stack = await startBackofficeStack();
    maker = await stack.backoffice.seedOperator({ name: 'CLI Maker', roles: ['maker', 'checker'] });
    checker = await stack.backoffice.seedOperator({ name: 'CLI Checker', roles: ['checker'] });
    makerSession = await maker.signIn();
    checkerSession = await checker.signIn();
    caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pwa-cli-ca-')), 'backoffice.pem');
    fs.writeFileSync(caFile, stack.backoffice.certificatePem);
  });

  afterAll(async () => {
    await stack?.stop();
    if (caFile) fs.rmSync(path.dirname(caFile), { recursive: true, force: true });
  });

  /** npm run operator -- backoffice <args> --json, as a person with this token in BACKOFFICE_TOKEN. */
  async function backofficeCli(token: string, ...args: string[]): Promise<CliRun> {
    const run = await humanCli(token, ...args, '--json');
    return { ...run, json: JSON.parse(run.stdout) as Record<string, unknown> };
  }

  /** The same without --json: the short human lines. */
  async function humanCli(token: string, ...args: string[]): Promise<{ code: number; stdout: string; output: string }> {
    const env = { PATH: process.env.PATH ?? '', BACKOFFICE_URL: stack.backoffice.baseUrl, BACKOFFICE_TOKEN: token, TLS_CA_FILE: caFile };
    let run: { code: number; stdout: string; output: string };
    try {
      const { stdout, stderr } = await runFile(process.execPath, [path.join(repoRoot, 'scripts', 'operator.js'), 'backoffice', ...args], { env });
      run = { code: 0, stdout, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      run = { code: failed.code, stdout: failed.stdout, output: failed.stdout + failed.stderr };
    }
    outputs.push(run.output);
    return run;
  }

  async function personalToken(person: ConsoleHttpsClient, name: string): Promise<{ tokenId: string; secret: string }> {
    const created = await person.post('/api/v1/personal-tokens', { name });
    expect(created.status).toBe(201);
    const { token, secret } = created.body.data as { token: { tokenId: string }; secret: string };
    expect(secret).toMatch(/^pwabo_/);
    return { tokenId: token.tokenId, secret };
  }

  it('when a maker requests a funding with their token, then they cannot approve it, a checker can, the balance moves once to the cent, a rejected request changes nothing, and a revoked token is refused', async () => {
    const makerToken = await personalToken(makerSession, 'maker laptop CLI');
    const checkerToken = await personalToken(checkerSession, 'checker laptop CLI');
    const partner = await onboardPartner(stack);
    const balanceBefore = (await ledgerBalances(stack.databaseUrl, '+231770000000', partner.partnerId, 'USD')).partnerMinor;

    const whoami = await backofficeCli(makerToken.secret, 'whoami');
    expect(whoami.code).toBe(0);
    expect((whoami.json.tokens as { tokenId: string }[]).map((token) => token.tokenId)).toContain(makerToken.tokenId);
    expect(whoami.json.operator).toMatchObject({ email: maker.email, roles: expect.arrayContaining(['maker']) });

    const listed = await backofficeCli(makerToken.secret, 'list-partners', '--search', partner.partnerId);
    expect({ code: listed.code, ids: (listed.json.partners as { partnerId: string }[]).map((found) => found.partnerId) }).toEqual({ code: 0, ids: [partner.partnerId] });

    const requested = await backofficeCli(makerToken.secret, 'request-funding', '--partner-id', partner.partnerId, '--currency', 'USD', '--amount', '12.50', '--reason', 'CLI top-up test');
    expect(requested.code).toBe(0);
    expect(requested.json).toMatchObject({ action: 'partner.fund', status: 'pending', makerId: maker.operatorId, target: { kind: 'partner', id: partner.partnerId }, parameters: { currency: 'USD', amountMinor: '1250' } });
    const requestId = String(requested.json.requestId);

    const pending = await backofficeCli(checkerToken.secret, 'list-requests', '--status', 'pending');
    expect((pending.json.requests as { requestId: string }[]).map((request) => request.requestId)).toContain(requestId);

    const ownApproval = await backofficeCli(makerToken.secret, 'approve', requestId);
    expect({ code: ownApproval.code, error: ownApproval.json.error }).toMatchObject({ code: 1, error: { code: 'CON_3002' } });
    expect(ownApproval.output).toContain('CON_3002');

    const approved = await backofficeCli(checkerToken.secret, 'approve', requestId, '--note', 'seen the bank slip');
    expect(approved.code).toBe(0);
    expect(approved.json).toMatchObject({ requestId, status: 'executed', checkerId: checker.operatorId, decisionNote: 'seen the bank slip' });

    const again = await backofficeCli(checkerToken.secret, 'approve', requestId);
    expect({ code: again.code, error: again.json.error }).toMatchObject({ code: 1, error: { code: 'CON_4002' } });
    const balanceAfter = (await ledgerBalances(stack.databaseUrl, '+231770000000', partner.partnerId, 'USD')).partnerMinor;
    expect(balanceAfter - balanceBefore).toBe(1250n);

    const transactions = await backofficeCli(checkerToken.secret, 'list-transactions', '--partner-id', partner.partnerId);
    expect({ code: transactions.code, amounts: (transactions.json.transactions as { amountMinor: string; currency: string }[]).map((t) => `${t.amountMinor} ${t.currency}`) }).toEqual({ code: 0, amounts: ['1250 USD'] });

    // A second request the checker rejects changes nothing; the human lines name it.
    const second = await backofficeCli(makerToken.secret, 'request-funding', '--partner-id', partner.partnerId, '--currency', 'USD', '--amount', '0.29', '--reason', 'typo, to be rejected');
    expect(second.json).toMatchObject({ status: 'pending', parameters: { amountMinor: '29' } });
    const rejected = await humanCli(checkerToken.secret, 'reject', String(second.json.requestId), '--note', 'wrong amount');
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toMatch(new RegExp(`^Rejected: ${String(second.json.requestId)}  rejected  partner\\.fund`));
    expect((await ledgerBalances(stack.databaseUrl, '+231770000000', partner.partnerId, 'USD')).partnerMinor - balanceBefore).toBe(1250n);

    const revoked = await makerSession.request('DELETE', `/api/v1/personal-tokens/${makerToken.tokenId}`);
    expect(revoked.status).toBe(204);
    const afterRevoke = await backofficeCli(makerToken.secret, 'list-requests');
    expect({ code: afterRevoke.code, error: afterRevoke.json.error }).toMatchObject({ code: 1, error: { code: 'CON_1004' } });

    const badAmount = await backofficeCli(checkerToken.secret, 'request-funding', '--partner-id', partner.partnerId, '--currency', 'USD', '--amount', '1.234', '--reason', 'x');
    expect({ code: badAmount.code, error: badAmount.json.error }).toMatchObject({ code: 2, error: { code: 'USAGE' } });

    for (const output of outputs) {
      expect(output).not.toContain(makerToken.secret);
      expect(output).not.toContain(checkerToken.secret);
    }
  });

  it('when a team runs a partner from the CLI (onboard, suspend, rate limit, fee schedule, tier limit, secret rotations), then each change is made as the person who asked or approved it, secrets are printed once, and the audit log lists it all', async () => {
    const makerToken = (await personalToken(makerSession, 'maker CLI, second')).secret;
    const checkerToken = (await personalToken(checkerSession, 'checker CLI, second')).secret;
    const tokenFor = (clientId: string, clientSecret: string) => stack.client.post('/partner/auth/token', { client_id: clientId, client_secret: clientSecret });
    const approve = async (requested: CliRun): Promise<void> => {
      expect(requested).toMatchObject({ code: 0, json: { status: 'pending' } });
      expect(await backofficeCli(checkerToken, 'approve', String(requested.json.requestId))).toMatchObject({ code: 0, json: { status: 'executed' } });
    };

    const onboarded = await humanCli(makerToken, 'onboard', '--name', 'CLI Partner Ltd', '--permissions', 'collection,disbursement', '--rate-limit', '600');
    expect(onboarded.code).toBe(0);
    const clientId = /client id {6}(\S+)/.exec(onboarded.stdout)?.[1] ?? '';
    const clientSecret = /client secret {2}(\S+)/.exec(onboarded.stdout)?.[1] ?? '';
    const key = /Idempotency-Key (\S+)/.exec(onboarded.stdout)?.[1] ?? '';
    expect(clientSecret).toMatch(/^pwsk_/);
    expect((await tokenFor(clientId, clientSecret)).status).toBe(200);
    // The same key again: the partner it made, and no secret.
    const replayed = await backofficeCli(makerToken, 'onboard', '--name', 'CLI Partner Ltd', '--permissions', 'collection,disbursement', '--rate-limit', '600', '--idempotency-key', key);
    expect(replayed.json).toMatchObject({ replayed: true, credentials: null });
    const partnerId = String((replayed.json.partner as { partnerId: string }).partnerId);

    await approve(await backofficeCli(makerToken, 'request-status', '--partner-id', partnerId, '--status', 'suspended', '--reason', 'KYC review'));
    expect((await tokenFor(clientId, clientSecret)).status).not.toBe(200);
    await approve(await backofficeCli(makerToken, 'request-status', '--partner-id', partnerId, '--status', 'active', '--reason', 'KYC passed'));
    await approve(await backofficeCli(makerToken, 'request-rate-limit', '--partner-id', partnerId, '--per-minute', 'default', '--reason', 'standard plan'));
    await approve(await backofficeCli(makerToken, 'request-fee-schedule', '--type', 'collection', '--currency', 'LRD', '--tiers', '1000.00:5.00:100,*:10.00:50', '--reason', 'new price list'));
    await approve(await backofficeCli(makerToken, 'request-tier-limit', '--tier', 'Gold', '--type', 'disbursement', '--currency', 'USD', '--daily', '2500.00', '--reason', 'Gold uplift'));
    const shown = await backofficeCli(checkerToken, 'show-partner', '--partner-id', partnerId);
    expect(shown.json.partner).toMatchObject({ status: 'active', rateLimitPerMinute: null });

    const rotated = await humanCli(makerToken, 'rotate-secret', '--partner-id', partnerId);
    const newSecret = /client secret {2}(\S+)/.exec(rotated.stdout)?.[1] ?? '';
    expect(newSecret).toMatch(/^pwsk_/);
    expect((await tokenFor(clientId, newSecret)).status).toBe(200);
    expect((await tokenFor(clientId, clientSecret)).status).toBe(401);
    const webhook = await backofficeCli(makerToken, 'rotate-webhook-secret', '--partner-id', partnerId, '--overlap-hours', '2');
    expect(webhook.json).toMatchObject({ replayed: false, webhookSecret: expect.stringMatching(/^whsec_/) });
    const refused = await backofficeCli(checkerToken, 'rotate-secret', '--partner-id', partnerId);
    expect({ code: refused.code, error: refused.json.error }).toMatchObject({ code: 1, error: { code: 'CON_3001' } });

    const audit = await backofficeCli(checkerToken, 'list-audit', '--target-id', partnerId);
    const actions = (audit.json.entries as { action: string; outcome: string }[]).map((entry) => `${entry.action} ${entry.outcome}`);
    expect(actions).toEqual(expect.arrayContaining(['partner.onboard done', 'partner.client_secret.rotate done', 'partner.client_secret.rotate refused', 'partner.webhook_secret.rotate done']));
    const ledger = await backofficeCli(checkerToken, 'check-ledger');
    expect(ledger.json).toMatchObject({ ok: true });
    const auditText = JSON.stringify(audit.json);
    for (const secret of [clientSecret, newSecret, String(webhook.json.webhookSecret)]) expect(auditText).not.toContain(secret);
  });
});
