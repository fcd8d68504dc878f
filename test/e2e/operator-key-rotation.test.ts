import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { createCollection } from '../support/collection-flow';
import { accessTokenFor } from '../support/partners';
import { repoRoot, startStack, type Stack } from '../support/stack';
import { decodeToken } from '../support/tokens';
import { createWalletUser, creditWallet, type WalletUser } from '../support/wallet-users';
import { startWebhookReceiver, verifiesServiceSignature, verifiesStandardSignature, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * The two key rotations of docs/operations.md ("Rotating secrets") on a whole stack: the webhook
 * secret sealing key (reseal-webhook-secrets) and auth's key-encryption key
 * (reencrypt-signing-keys). After each, the services started with the new key work as before: the
 * partner's webhooks are signed with the secret it got at onboarding, and tokens are issued with
 * the same signing key.
 */
const runFile = promisify(execFile);

const oldKeyEncryptionKey = randomBytes(32).toString('base64');

describe('operator key rotation', () => {
  let stack: Stack;
  let user: WalletUser;
  let endpoint: WebhookReceiver;

  beforeAll(async () => {
    stack = await startStack({
      logLevel: 'warn',
      serviceEnv: {
        // The stack's own key-encryption key is not exposed; this test owns auth's.
        auth: { AUTH_KEY_ENCRYPTION_KEY: oldKeyEncryptionKey },
        collections: { OUTBOX_POLL_INTERVAL_MS: '100' },
        webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_RETRY_DELAYS_MS: '300,300,300' },
      },
    });
    user = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
    await creditWallet(stack, user, 'USD', '1000');
    endpoint = await startWebhookReceiver();
  });

  afterAll(async () => {
    await endpoint?.close();
    await stack?.stop();
  });

  /** The auth operator CLI with the given keys in its environment (never on its command line). */
  async function authCli(env: Record<string, string>, ...args: string[]): Promise<Record<string, unknown>> {
    const { stdout } = await runFile(process.execPath, [path.join(repoRoot, 'services', 'auth', 'dist', 'cli', 'main.js'), ...args, '--json'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATABASE_URL: stack.databaseUrl, ENVIRONMENT: stack.environment, ...env },
    });
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  async function approvedCollectionWebhook(token: string, count: number): Promise<{ body: string; received: Parameters<typeof verifiesServiceSignature>[0] }> {
    const referenceId = await createCollection(stack.client, token, { phone: user.phone, amount: 10, currency: 'USD' });
    expect((await stack.client.post(`/partner/v1/sandbox/collection/${referenceId}/approve`, {}, { bearer: token })).status).toBe(200);
    const received = (await endpoint.waitFor(count, 20_000))[count - 1];
    if (!received) throw new Error('no webhook');
    expect(JSON.parse(received.body)).toMatchObject({ event: 'collection.completed', referenceId });
    return { body: received.body, received };
  }

  test('when the webhook secret sealing key is replaced (webhooks on both keys, reseal, webhooks on the new key alone), then webhooks are signed with the secret from onboarding throughout', async () => {
    const onboarded = await stack.operator([
      'onboard', '--name', `Rotation partner ${randomUUID().slice(0, 8)}`, '--permissions', 'collection', '--rate-limit', '100000', '--webhook-url', endpoint.url,
    ]);
    const partner = { clientId: String(onboarded.clientId), clientSecret: String(onboarded.clientSecret), webhookSecret: String(onboarded.webhookSecret) };
    const token = await accessTokenFor(stack.client, partner);
    const oldSealingKey = stack.webhookSecretSealingKey;
    const newSealingKey = randomBytes(32).toString('base64');

    // 1. Webhooks on the new key, the old one as WEBHOOK_SECRET_SEALING_KEY_PREVIOUS.
    await stack.stopService('webhooks');
    const bothKeys = await stack.startExtraService('webhooks', { WEBHOOK_SECRET_SEALING_KEY: newSealingKey, WEBHOOK_SECRET_SEALING_KEY_PREVIOUS: oldSealingKey });
    const first = await approvedCollectionWebhook(token, 1);
    expect(verifiesServiceSignature(first.received, partner.webhookSecret)).toBe(true);

    // 2. Re-seal what auth stores; a second run finds nothing left to do.
    const keys = { WEBHOOK_SECRET_SEALING_KEY: newSealingKey, OLD_WEBHOOK_SECRET_SEALING_KEY: oldSealingKey };
    const resealed = await authCli(keys, 'reseal-webhook-secrets', '--from-key-env', 'OLD_WEBHOOK_SECRET_SEALING_KEY');
    expect(resealed).toMatchObject({ partners: 1, resealed: 1, alreadyUnderNewKey: 0 });
    expect(await authCli(keys, 'reseal-webhook-secrets', '--from-key-env', 'OLD_WEBHOOK_SECRET_SEALING_KEY')).toMatchObject({ resealed: 0, alreadyUnderNewKey: 1 });

    // 3. Webhooks on the new key alone: the partner.updated events (or the directory) carry the re-sealed secret.
    await bothKeys.stop();
    const newKeyOnly = await stack.startExtraService('webhooks', { WEBHOOK_SECRET_SEALING_KEY: newSealingKey });
    const second = await approvedCollectionWebhook(token, 2);
    expect(verifiesServiceSignature(second.received, partner.webhookSecret)).toBe(true);
    expect(verifiesStandardSignature(second.received, partner.webhookSecret)).toBe(true);
    await newKeyOnly.stop();
  });

  test('when the key-encryption key is replaced (reencrypt, auth restarted on the new key), then tokens are issued with the same signing key and earlier tokens still work', async () => {
    const onboarded = await stack.operator(['onboard', '--name', `Token partner ${randomUUID().slice(0, 8)}`, '--permissions', 'collection', '--rate-limit', '100000']);
    const partner = { clientId: String(onboarded.clientId), clientSecret: String(onboarded.clientSecret) };
    const tokenBefore = await accessTokenFor(stack.client, partner);
    const newKeyEncryptionKey = randomBytes(32).toString('base64');

    const keys = { AUTH_KEY_ENCRYPTION_KEY: newKeyEncryptionKey, OLD_AUTH_KEY_ENCRYPTION_KEY: oldKeyEncryptionKey };
    const reencrypted = await authCli(keys, 'reencrypt-signing-keys', '--from-key-env', 'OLD_AUTH_KEY_ENCRYPTION_KEY');
    expect(reencrypted).toMatchObject({ keys: 1, reencrypted: 1, alreadyUnderNewKey: 0 });

    await stack.stopService('auth');
    const auth = await stack.startExtraService('auth', { AUTH_KEY_ENCRYPTION_KEY: newKeyEncryptionKey });
    const gateway = await stack.startExtraGateway({ AUTH_URL: auth.url });
    const tokenAfter = await accessTokenFor(gateway.client, partner);
    expect(decodeToken(tokenAfter).header.kid).toBe(decodeToken(tokenBefore).header.kid);
    for (const token of [tokenBefore, tokenAfter]) {
      expect((await gateway.client.get('/partner/v1/balance', { bearer: token })).status).toBe(200);
    }
    await gateway.stop();
    await auth.stop();
  });
});
