import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { createCollection } from '../support/collection-flow';
import { accessTokenFor } from '../support/partners';
import { repoRoot, startStack, type Stack } from '../support/stack';
import { startTokenTraffic } from '../support/token-traffic';
import { decodeToken } from '../support/tokens';
import { createWalletUser, creditWallet, type WalletUser } from '../support/wallet-users';
import { startWebhookReceiver, verifiesServiceSignature, verifiesStandardSignature, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * The two key rotations of docs/operations.md ("Rotating secrets") on a whole stack: the webhook
 * secret sealing key (reseal-webhook-secrets) and auth's key-encryption key
 * (reencrypt-signing-keys), each as a rolling update with the previous key accepted during the
 * overlap. After each, the services started with the new key work as before: the partner's
 * webhooks are signed with the secret it got at onboarding, and tokens are issued with the same
 * signing key, with no token request refused on the way.
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

  test('when the key-encryption key is replaced in a rolling update (replicas on the new key with the previous one, reencrypt, replicas on the new key alone), then no token request is refused throughout and tokens keep their signing key', async () => {
    const onboarded = await stack.operator(['onboard', '--name', `Token partner ${randomUUID().slice(0, 8)}`, '--permissions', 'collection', '--rate-limit', '100000']);
    const partner = { clientId: String(onboarded.clientId), clientSecret: String(onboarded.clientSecret) };
    const tokenBefore = await accessTokenFor(stack.client, partner);
    const newKeyEncryptionKey = randomBytes(32).toString('base64');
    const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
    // Longer than auth's 5-second cache of the decrypted signing key: every replica decrypts again in each phase.
    const phaseMs = 6_000;

    // Token requests to every replica in service, ten a second, the whole time.
    const credentials = { client_id: partner.clientId, client_secret: partner.clientSecret };
    const traffic = startTokenTraffic(credentials, '1 old replica', [stack.client], 90_000);

    // Without the previous key, a replica on the new key alone cannot open the stored signing key: the gap the overlap closes.
    const tooEarly = await stack.startExtraService('auth', { AUTH_KEY_ENCRYPTION_KEY: newKeyEncryptionKey });
    const tooEarlyGateway = await stack.startExtraGateway({ AUTH_URL: tooEarly.url });
    expect((await tooEarlyGateway.client.post('/partner/auth/token', { client_id: partner.clientId, client_secret: partner.clientSecret })).status).not.toBe(200);
    await tooEarlyGateway.stop();
    await tooEarly.stop();

    // 1. The rolling update: a replica on the new key that still decrypts with the old one joins; the old replica drains and stops.
    const overlap = await stack.startExtraService('auth', { AUTH_KEY_ENCRYPTION_KEY: newKeyEncryptionKey, AUTH_KEY_ENCRYPTION_KEY_PREVIOUS: oldKeyEncryptionKey });
    const overlapGateway = await stack.startExtraGateway({ AUTH_URL: overlap.url });
    traffic.serve('2 old and overlapping replicas', [stack.client, overlapGateway.client]);
    await pause(phaseMs);
    traffic.serve('3 overlapping replica', [overlapGateway.client]);
    await pause(300);
    await stack.stopService('auth');

    // 2. Re-encrypt under traffic; a second run finds nothing left to do.
    const keys = { AUTH_KEY_ENCRYPTION_KEY: newKeyEncryptionKey, OLD_AUTH_KEY_ENCRYPTION_KEY: oldKeyEncryptionKey };
    expect(await authCli(keys, 'reencrypt-signing-keys', '--from-key-env', 'OLD_AUTH_KEY_ENCRYPTION_KEY')).toMatchObject({ keys: 1, reencrypted: 1, alreadyUnderNewKey: 0 });
    expect(await authCli(keys, 'reencrypt-signing-keys', '--from-key-env', 'OLD_AUTH_KEY_ENCRYPTION_KEY')).toMatchObject({ reencrypted: 0, alreadyUnderNewKey: 1 });
    traffic.serve('4 overlapping replica after reencrypt', [overlapGateway.client]);
    await pause(phaseMs);

    // 3. The second rolling update: replicas on the new key alone; the overlapping one drains and stops.
    const newOnly = await stack.startExtraService('auth', { AUTH_KEY_ENCRYPTION_KEY: newKeyEncryptionKey });
    const newOnlyGateway = await stack.startExtraGateway({ AUTH_URL: newOnly.url });
    traffic.serve('5 overlapping and new replicas', [overlapGateway.client, newOnlyGateway.client]);
    await pause(phaseMs);
    traffic.serve('6 new replica', [newOnlyGateway.client]);
    await pause(300);
    await overlapGateway.stop();
    await overlap.stop();
    await pause(1_000);
    const { issued, refused } = await traffic.stop();

    expect(refused).toEqual([]);
    expect([...issued.keys()].sort()).toEqual(['1 old replica', '2 old and overlapping replicas', '3 overlapping replica', '4 overlapping replica after reencrypt', '5 overlapping and new replicas', '6 new replica']);
    const tokenAfter = await accessTokenFor(newOnlyGateway.client, partner);
    expect(decodeToken(tokenAfter).header.kid).toBe(decodeToken(tokenBefore).header.kid);
    for (const token of [tokenBefore, tokenAfter]) {
      expect((await newOnlyGateway.client.get('/partner/v1/balance', { bearer: token })).status).toBe(200);
    }
    await newOnlyGateway.stop();
    await newOnly.stop();
  });
});
