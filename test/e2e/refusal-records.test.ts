import { randomUUID } from 'node:crypto';
import { createCollection, quoteCollection, requestCollection } from '../support/collection-flow';
import { databaseFingerprint } from '../support/database-fingerprint';
import { disbursementQuote, transfer } from '../support/disbursement-helpers';
import type { HttpsJsonClient, JsonResponse } from '../support/https-client';
import { accessTokenFor } from '../support/partners';
import { startStack, type ExtraServiceProcess, type GatewayProcess, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner, updateWalletUser, type WalletUser } from '../support/wallet-users';
import { startWebhookReceiver, verifiesServiceSignature, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 14, "Refusals that leave a record must say which", through the gateway over HTTPS: every
 * refusal that left a record names it (referenceId and status as fields of the error body, beside
 * success, code and message); that record reads failed with a failureReason (and, for a
 * disbursement, a netAmount of 0: nothing reached the user); its webhook carries the failureReason.
 * PKC_6001 names the transaction holding the externalId as fields too, and a 404 echoes at most
 * the first 64 characters of the referenceId it was given.
 */
const disbursementReferencePattern = /^PKD-\d+-[0-9A-F]+$/;
const collectionReferencePattern = /^PKC-\d+-[0-9A-F]+$/;

interface WebhookPartner {
  partnerId: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  token: string;
}

describe('refusals that leave a record say which', () => {
  let stack: Stack;
  let hooks: WebhookReceiver;
  let partner: WebhookPartner;
  let token: string;

  beforeAll(async () => {
    stack = await startStack({
      logLevel: 'warn',
      serviceEnv: {
        collections: { OUTBOX_POLL_INTERVAL_MS: '100' },
        disbursements: { OUTBOX_POLL_INTERVAL_MS: '100' },
        webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100' },
      },
    });
    hooks = await startWebhookReceiver();
    partner = await onboardWithWebhook();
    await fundPartner(stack, partner.partnerId, 'USD', '5000.00');
    token = partner.token;
  });

  afterAll(async () => {
    try {
      if (stack) expect(await stack.walletOperator(['check-ledger'])).toMatchObject({ ok: true, problems: [] });
    } finally {
      await hooks?.close();
      await stack?.stop();
    }
  });

  /** A partner whose webhooks go to this suite's receiver (each webhook is told apart by its referenceId). */
  async function onboardWithWebhook(): Promise<WebhookPartner> {
    const onboarded = await stack.operator([
      'onboard', '--name', `Refusal records ${randomUUID().slice(0, 8)}`, '--permissions', 'collection,disbursement', '--rate-limit', '100000', '--webhook-url', hooks.url,
    ]);
    const { partnerId, clientId, clientSecret, webhookSecret } = onboarded as Record<string, string>;
    const credentials = { partnerId: partnerId ?? '', clientId: clientId ?? '', clientSecret: clientSecret ?? '', webhookSecret: webhookSecret ?? '' };
    return { ...credentials, token: await accessTokenFor(stack.client, credentials) };
  }

  const walletFingerprint = () => databaseFingerprint(stack.databaseUrl, ['wallet']);
  const disbursementStatus = (referenceId: string, bearer = token) => stack.client.get(`/partner/v1/disbursement/${referenceId}`, { bearer });
  const collectionStatus = (referenceId: string) => stack.client.get(`/partner/v1/collection/${referenceId}`, { bearer: token });

  /** The webhook delivered for this reference, parsed, once its signature verifies with the partner's secret. */
  async function webhookOf(referenceId: string, webhookSecret = partner.webhookSecret): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = hooks.received.find((request: ReceivedWebhook) => (JSON.parse(request.body) as { referenceId?: string }).referenceId === referenceId);
      if (found) {
        expect(verifiesServiceSignature(found, webhookSecret)).toBe(true);
        return JSON.parse(found.body) as Record<string, unknown>;
      }
      if (Date.now() > deadline) throw new Error(`no webhook for ${referenceId} within 15 s (received ${hooks.received.length})`);
      await hooks.waitFor(hooks.received.length + 1, Math.max(1, deadline - Date.now())).catch(() => undefined);
    }
  }

  /** A refusal whose body names the failed disbursement it recorded; resolves that referenceId. */
  function expectFailedDisbursementNamed(response: JsonResponse, httpStatus: number, code: string): string {
    expect({ status: response.status, body: response.body }).toEqual({
      status: httpStatus,
      body: { success: false, code, message: expect.any(String), referenceId: expect.stringMatching(disbursementReferencePattern), status: 'failed' },
    });
    const referenceId = response.body.referenceId as string;
    expect(response.body.message).toContain(referenceId);
    return referenceId;
  }

  /** The named disbursement reads failed, with the reason, nothing received by the user, and its webhook says why. */
  async function expectFailedDisbursementRecorded(
    referenceId: string,
    externalId: string,
    quote: { fee: number; totalDebit: number },
    amount: number,
    failureReason: { code: string; message: string },
    owner: WebhookPartner = partner,
  ): Promise<void> {
    const status = await disbursementStatus(referenceId, owner.token);
    expect({ status: status.status, body: status.body }).toEqual({
      status: 200,
      body: {
        success: true,
        data: {
          referenceId,
          externalId,
          status: 'failed',
          transactionId: null,
          amount,
          currency: 'USD',
          fee: quote.fee,
          totalDebit: quote.totalDebit,
          netAmount: 0,
          createdAt: expect.stringMatching(/Z$/),
          completedAt: null,
          failureCode: failureReason.code,
          failureReason,
        },
      },
    });
    expect(await webhookOf(referenceId, owner.webhookSecret)).toEqual({
      event: 'disbursement.failed',
      referenceId,
      externalId,
      amount,
      currency: 'USD',
      fee: quote.fee,
      status: 'failed',
      timestamp: expect.stringMatching(/Z$/),
      failureReason,
    });
  }

  describe('disbursement transfers', () => {
    test('when the user is suspended between quote and transfer, then 403 PKC_3002 names the failed disbursement, which reads failed with failureReason and netAmount 0, and its webhook carries failureReason', async () => {
      const user = await createWalletUser(stack);
      const quote = await disbursementQuote(stack.client, token, user, 12.5);
      await updateWalletUser(stack, user, ['--status', 'suspended']);
      const before = await walletFingerprint();
      const externalId = `suspended-${randomUUID()}`;

      const response = await transfer(stack.client, token, { quoteId: quote.quoteId, externalId });

      const referenceId = expectFailedDisbursementNamed(response, 403, 'PKC_3002');
      expect(await walletFingerprint()).toEqual(before);
      await expectFailedDisbursementRecorded(referenceId, externalId, quote, 12.5, { code: 'PKC_3002', message: 'User account not active (suspended or closed)' });
    });

    test('when the partner balance no longer covers a second quoted transfer, then 400 PKC_4002 names the failed disbursement, which reads failed with failureReason and netAmount 0, and its webhook carries failureReason', async () => {
      const poor = await onboardWithWebhook();
      await fundPartner(stack, poor.partnerId, 'USD', '100.00');
      const user = await createWalletUser(stack);
      const first = await disbursementQuote(stack.client, poor.token, user, 60);
      const second = await disbursementQuote(stack.client, poor.token, user, 60);
      expect((await transfer(stack.client, poor.token, { quoteId: first.quoteId, externalId: `first-${randomUUID()}` })).status).toBe(200);
      const externalId = `second-${randomUUID()}`;

      const response = await transfer(stack.client, poor.token, { quoteId: second.quoteId, externalId });

      const referenceId = expectFailedDisbursementNamed(response, 400, 'PKC_4002');
      await expectFailedDisbursementRecorded(referenceId, externalId, second, 60, { code: 'PKC_4002', message: 'Partner balance insufficient for amount plus fee' }, poor);
    });

    test('when the externalId belongs to a completed disbursement, then 409 PKC_6001 carries its referenceId and status as fields and in the message', async () => {
      const user = await createWalletUser(stack);
      const externalId = `taken-${randomUUID()}`;
      const first = await transfer(stack.client, token, { quoteId: (await disbursementQuote(stack.client, token, user, 3)).quoteId, externalId });
      expect(first.status).toBe(200);
      const holder = first.body.data.referenceId as string;

      const duplicate = await transfer(stack.client, token, { quoteId: (await disbursementQuote(stack.client, token, user, 4)).quoteId, externalId });

      expect({ status: duplicate.status, body: duplicate.body }).toEqual({
        status: 409,
        body: { success: false, code: 'PKC_6001', message: `externalId already used by disbursement ${holder} (status completed)`, referenceId: holder, status: 'completed' },
      });
      expect((await disbursementStatus(holder)).body.data).toMatchObject({ referenceId: holder, status: 'completed', netAmount: 3 });
    });
  });

  describe('disbursement transfers that the wallet did not answer in time, or at all', () => {
    let slowWallet: ExtraServiceProcess;
    let slowGateway: GatewayProcess;

    beforeAll(async () => {
      // A wallet whose postings stall 3 s before claiming the transfer id, behind a disbursements
      // process with a 1 s budget and a gateway of its own; stopping that wallet makes it unreachable.
      slowWallet = await stack.startExtraService('wallet', { WALLET_POST_DELAY_MS: '3000', WALLET_POST_DELAY_POINT: 'before_claim' });
      const disbursements = await stack.startExtraService('disbursements', {
        WALLET_URL: slowWallet.url,
        DISBURSEMENT_BUDGET_MS: '1000',
        OUTBOX_POLL_INTERVAL_MS: '100',
      });
      slowGateway = await stack.startExtraGateway({ DISBURSEMENTS_URL: disbursements.url });
    });

    const transferThrough = (client: HttpsJsonClient, body: unknown) => transfer(client, token, body);

    test('when the budget runs out, then 504 PKC_7004 names the failed disbursement, which reads failed with failureReason and netAmount 0, and its webhook carries failureReason', async () => {
      const user = await createWalletUser(stack);
      const quote = await disbursementQuote(stack.client, token, user, 6);
      const externalId = `late-${randomUUID()}`;

      const response = await transferThrough(slowGateway.client, { quoteId: quote.quoteId, externalId });

      const referenceId = expectFailedDisbursementNamed(response, 504, 'PKC_7004');
      await expectFailedDisbursementRecorded(referenceId, externalId, quote, 6, {
        code: 'PKC_7004',
        message: 'Transfer exceeded the 25-second processing budget; nothing was posted; safe to retry',
      });
    });

    test('when the wallet cannot be reached, then 503 PKC_7003 names the failed disbursement, which reads failed with failureReason and netAmount 0, and its webhook carries failureReason', async () => {
      await slowWallet.stop();
      const user = await createWalletUser(stack);
      const quote = await disbursementQuote(stack.client, token, user, 7);
      const externalId = `unreachable-${randomUUID()}`;

      const response = await transferThrough(slowGateway.client, { quoteId: quote.quoteId, externalId });

      const referenceId = expectFailedDisbursementNamed(response, 503, 'PKC_7003');
      await expectFailedDisbursementRecorded(referenceId, externalId, quote, 7, { code: 'PKC_7003', message: 'The wallet system could not be reached; nothing was posted' });
    });
  });

  describe('collection requests', () => {
    /** A Gold user with USD to pay collections. */
    async function payer(): Promise<WalletUser> {
      const user = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
      await creditWallet(stack, user, 'USD', '500.00');
      return user;
    }

    test('when the user is suspended between quote and collection request, then 403 PKC_3002 leaves no record and names none', async () => {
      const user = await payer();
      const quoteId = await quoteCollection(stack.client, token, { phone: user.localPhone, amount: 10, currency: 'USD' });
      await updateWalletUser(stack, user, ['--status', 'suspended']);
      const before = await databaseFingerprint(stack.databaseUrl, ['collections', 'wallet']);

      const response = await stack.client.post('/partner/v1/collection/request', { quoteId, externalId: `refused-${randomUUID()}` }, { bearer: token });

      expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: { success: false, code: 'PKC_3002', message: expect.any(String) } });
      expect(await databaseFingerprint(stack.databaseUrl, ['collections', 'wallet'])).toEqual(before);
    });

    test('when the user is suspended between request and approval, then the collection ends failed with failureReason on its status and in its webhook', async () => {
      const user = await payer();
      const externalId = `approve-suspended-${randomUUID()}`;
      const referenceId = await createCollection(stack.client, token, { phone: user.localPhone, amount: 10, currency: 'USD', externalId });
      await updateWalletUser(stack, user, ['--status', 'suspended']);
      const failureReason = { code: 'PKC_3002', message: 'User account not active (suspended or closed)' };

      const approved = await stack.client.post(`/partner/v1/sandbox/collection/${referenceId}/approve`, {}, { bearer: token });

      expect(approved.status).toBe(200);
      expect(approved.body.data).toMatchObject({ referenceId, status: 'failed', failureReason });
      const status = await collectionStatus(referenceId);
      expect(status.body).toEqual({
        success: true,
        data: {
          referenceId,
          externalId,
          status: 'failed',
          amount: 10,
          currency: 'USD',
          fee: expect.any(Number),
          totalDebit: expect.any(Number),
          expiresAt: expect.stringMatching(/Z$/),
          createdAt: expect.stringMatching(/Z$/),
          failureReason,
        },
      });
      expect(await webhookOf(referenceId)).toEqual({
        event: 'collection.failed',
        referenceId,
        externalId,
        amount: 10,
        currency: 'USD',
        fee: status.body.data.fee,
        status: 'failed',
        timestamp: expect.stringMatching(/Z$/),
        failureReason,
      });
    });

    test('when the externalId belongs to a pending collection, then 409 PKC_6001 carries its referenceId and status as fields and in the message', async () => {
      const user = await payer();
      const externalId = `pending-${randomUUID()}`;
      const holder = await createCollection(stack.client, token, { phone: user.localPhone, amount: 10, currency: 'USD', externalId });

      const duplicate = await requestCollection(stack.client, token, { phone: user.localPhone, amount: 11, currency: 'USD', externalId });

      expect({ status: duplicate.status, body: duplicate.body }).toEqual({
        status: 409,
        body: { success: false, code: 'PKC_6001', message: `externalId already used by collection ${holder} (status pending_approval)`, referenceId: holder, status: 'pending_approval' },
      });
      expect(holder).toMatch(collectionReferencePattern);
    });
  });

  describe('echoed input', () => {
    const longReference = `PKC-1-${'A'.repeat(3_994)}`;

    test('when a 4,000-character referenceId is asked for, then the 404 message echoes only its first 64 characters', async () => {
      expect(longReference).toHaveLength(4_000);

      const response = await collectionStatus(longReference);

      expect({ status: response.status, code: response.body.code }).toEqual({ status: 404, code: 'PKC_6002' });
      expect(response.body.message).toContain(`${longReference.slice(0, 64)}…`);
      expect(response.body.message).not.toContain(longReference.slice(0, 65));
      expect((response.body.message as string).length).toBeLessThan(120);
    });

    test('when a 4,000-character referenceId is asked of disbursements, then the 404 message does not carry it', async () => {
      const response = await disbursementStatus(`PKD-1-${'A'.repeat(3_994)}`);

      expect({ status: response.status, code: response.body.code }).toEqual({ status: 404, code: 'PKC_6002' });
      expect((response.body.message as string).length).toBeLessThan(120);
    });
  });
});

