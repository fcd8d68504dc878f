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

  beforeAll(async () => {
    stack = await startBackofficeStack();
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
    // The maker is a checker too, so refusing their approval is the four-eyes rule (CON_3002), not a missing role.
    const maker = await stack.backoffice.seedOperator({ name: 'CLI Maker', roles: ['maker', 'checker'] });
    const checker = await stack.backoffice.seedOperator({ name: 'CLI Checker', roles: ['checker'] });
    const makerSession = await maker.signIn();
    const checkerSession = await checker.signIn();
    const makerToken = await personalToken(makerSession, 'maker laptop CLI');
    const checkerToken = await personalToken(checkerSession, 'checker laptop CLI');
    const partner = await onboardPartner(stack);
    const balanceBefore = (await ledgerBalances(stack.databaseUrl, '+231770000000', partner.partnerId, 'USD')).partnerMinor;

    const whoami = await backofficeCli(makerToken.secret, 'whoami');
    expect(whoami.code).toBe(0);
    expect((whoami.json.tokens as { tokenId: string }[]).map((token) => token.tokenId)).toEqual([makerToken.tokenId]);
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
});
