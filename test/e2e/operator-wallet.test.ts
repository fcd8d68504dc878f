import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { accessTokenFor, onboardPartner } from '../support/partners';
import { repoRoot, startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet } from '../support/wallet-users';

/**
 * The wallet operator CLI against a whole stack (issue 15): fund-partner asks the real auth
 * service whether the partner exists, and a wallet the operator closes is refused through the
 * gateway with PKC_3003 until it is reopened.
 */
const runFile = promisify(execFile);

describe('wallet operator CLI on a stack', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ logLevel: 'warn' });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** The wallet CLI as npm run operator runs it, with AUTH_URL; resolves its exit code and JSON. */
  async function walletCli(...args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
    const options = {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATABASE_URL: stack.databaseUrl, ENVIRONMENT: stack.environment, AUTH_URL: stack.internalUrls.auth },
    };
    try {
      const { stdout } = await runFile(process.execPath, [path.join(repoRoot, 'services', 'wallet', 'dist', 'cli', 'main.js'), ...args, '--json'], options);
      return { code: 0, json: JSON.parse(stdout) as Record<string, unknown> };
    } catch (error) {
      const failed = error as { code: number; stdout: string };
      return { code: failed.code, json: JSON.parse(failed.stdout) as Record<string, unknown> };
    }
  }

  test('when fund-partner names a partner auth knows, then it is funded and named; a mistyped id is refused and credits nobody', async () => {
    const partner = await onboardPartner(stack);
    const funded = await walletCli('fund-partner', partner.partnerId, 'USD', '250', '--reference', 'bank ref e2e');
    expect(funded).toMatchObject({ code: 0, json: { state: 'posted', replayed: false, partner: { partnerId: partner.partnerId, name: partner.name, status: 'active' } } });
    // The same transfer id again: the first posting, said to be replayed, and the balance moved once.
    const transferId = String(funded.json.transferId);
    const again = await walletCli('fund-partner', partner.partnerId, 'USD', '250', '--reference', 'bank ref e2e', '--transfer-id', transferId);
    expect(again).toMatchObject({ code: 0, json: { state: 'posted', replayed: true, transactionId: funded.json.transactionId } });
    const balances = (await walletCli('show-balances', '--partner', partner.partnerId)).json.partners as { balances?: unknown }[];
    expect(JSON.stringify(balances)).toContain('250.00');
    expect(JSON.stringify(balances)).not.toContain('500.00');

    const mistyped = randomUUID();
    const refused = await walletCli('fund-partner', mistyped, 'USD', '250');
    expect(refused).toMatchObject({ code: 1, json: { error: expect.stringContaining(`knows no partner ${mistyped}`) } });
    expect((await walletCli('show-balances', '--partner', mistyped)).json.partners).toEqual([]);
    expect((await walletCli('check-ledger')).json).toMatchObject({ ok: true });
  });

  test('when the operator closes a user wallet, then a quote in that currency is PKC_3003 through the gateway, and after reopening it is quoted again', async () => {
    const partner = await onboardPartner(stack, { rateLimitPerMinute: 100_000 });
    const token = await accessTokenFor(stack.client, partner);
    const user = await createWalletUser(stack, { currencies: ['LRD', 'USD'] });
    await creditWallet(stack, user, 'USD', '20');
    const quote = (): Promise<{ status: number; body: any }> =>
      stack.client.post('/partner/v1/collection/quote', { phone: user.localPhone, amount: 5, currency: 'USD' }, { bearer: token });

    expect(await walletCli('update-user', user.localPhone, '--close-wallet', 'USD')).toMatchObject({ code: 1, json: { error: expect.stringContaining('it holds 20.00 USD') } });
    expect((await quote()).status).toBe(200);

    const emptied = await createWalletUser(stack, { currencies: ['LRD', 'USD'] });
    expect(await walletCli('update-user', emptied.localPhone, '--close-wallet', 'USD')).toMatchObject({ code: 0, json: { closedWallets: [{ currency: 'USD' }] } });
    const closedQuote = await stack.client.post('/partner/v1/disbursement/quote', { phone: emptied.localPhone, amount: 5, currency: 'USD' }, { bearer: token });
    expect({ status: closedQuote.status, code: closedQuote.body.code }).toEqual({ status: 404, code: 'PKC_3003' });
    const account = await stack.client.get(`/partner/v1/account/${emptied.localPhone}`, { bearer: token });
    expect(account.body.data.currencies).toEqual(['LRD']);

    expect((await walletCli('update-user', emptied.localPhone, '--reopen-wallet', 'USD')).code).toBe(0);
    const reopenedQuote = await stack.client.post('/partner/v1/collection/quote', { phone: emptied.localPhone, amount: 5, currency: 'USD' }, { bearer: token });
    expect({ status: reopenedQuote.status, code: reopenedQuote.body.code }).toEqual({ status: 400, code: 'PKC_4001' });
  });
});
