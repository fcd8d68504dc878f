import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { connect as connectAmqp } from 'amqplib';
import { disbursementQuote, transfer } from '../support/disbursement-helpers';
import { accessTokenFor } from '../support/partners';
import { repoRoot, startStack, type ExtraServiceProcess, type Stack } from '../support/stack';
import { createWalletUser } from '../support/wallet-users';
import { startWebhookReceiver, verifiesServiceSignature, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * The webhooks service rebuilds its copy of partners from auth's partner directory (issue 15): a
 * partner onboarded while webhooks was down, and whose partner.created event no webhooks queue
 * kept, still receives its webhooks once webhooks is back, signed with the secret from onboarding.
 */
const runFile = promisify(execFile);

describe('webhooks partner directory', () => {
  let stack: Stack;
  let webhooksAgain: ExtraServiceProcess | undefined;
  let endpoint: WebhookReceiver | undefined;

  beforeAll(async () => {
    stack = await startStack({
      logLevel: 'warn',
      serviceEnv: { webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_RETRY_DELAYS_MS: '300,300,300', PARTNER_DIRECTORY_RETRY_MS: '500' } },
    });
  });

  afterAll(async () => {
    await endpoint?.close();
    await webhooksAgain?.stop();
    await stack?.stop();
  });

  /** The wallet CLI with AUTH_URL, as npm run operator runs it (fund-partner asks auth about the partner). */
  async function walletCli(...args: string[]): Promise<Record<string, unknown>> {
    const { stdout } = await runFile(process.execPath, [path.join(repoRoot, 'services', 'wallet', 'dist', 'cli', 'main.js'), ...args, '--json'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATABASE_URL: stack.databaseUrl, ENVIRONMENT: stack.environment, AUTH_URL: stack.internalUrls.auth },
    });
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  /** Deletes the webhooks partner-events queue: what a fresh deployment order or a wiped broker leaves. */
  async function deletePartnerEventsQueue(): Promise<void> {
    const connection = await connectAmqp(stack.amqpUrl);
    try {
      const channel = await connection.createChannel();
      await channel.deleteQueue(`${stack.busExchange}.webhooks.partner-events`);
      await channel.close();
    } finally {
      await connection.close();
    }
  }

  test('when a partner is onboarded while webhooks is down and no queue keeps its event, then after webhooks starts its disbursement webhook arrives signed with the onboarding secret', async () => {
    const user = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
    endpoint = await startWebhookReceiver();

    await stack.stopService('webhooks');
    await deletePartnerEventsQueue();
    const onboarded = await stack.operator([
      'onboard', '--name', `Directory partner ${randomUUID().slice(0, 8)}`, '--permissions', 'disbursement', '--rate-limit', '100000', '--webhook-url', endpoint.url,
    ]);
    const partner = {
      partnerId: String(onboarded.partnerId),
      clientId: String(onboarded.clientId),
      clientSecret: String(onboarded.clientSecret),
      webhookSecret: String(onboarded.webhookSecret),
    };
    await walletCli('fund-partner', partner.partnerId, 'USD', '500', '--reference', 'directory test');

    webhooksAgain = await stack.startExtraService('webhooks', { WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_RETRY_DELAYS_MS: '300,300,300', PARTNER_DIRECTORY_RETRY_MS: '500' });

    const token = await accessTokenFor(stack.client, partner);
    const quote = await disbursementQuote(stack.client, token, user, 25);
    const sent = await transfer(stack.client, token, { quoteId: quote.quoteId, externalId: `directory-${randomUUID()}` });
    expect(sent.status).toBe(200);
    const referenceId = (sent.body.data as { referenceId: string }).referenceId;

    const [received] = await endpoint.waitFor(1, 20_000);
    expect(JSON.parse(received?.body ?? '')).toMatchObject({ event: 'disbursement.completed', referenceId, amount: 25, currency: 'USD' });
    expect(received?.headers['x-service-partner-id']).toBe(partner.clientId);
    expect(received && verifiesServiceSignature(received, partner.webhookSecret)).toBe(true);
  });
});
