import { Pool } from 'pg';
import { readCollectionsConfig } from '../../services/collections/src/config';
import { readDisbursementsConfig } from '../../services/disbursements/src/config';
import { createCollection } from '../support/collection-flow';
import { outboxRowsFor, recordBusEvents, type BusRecorder } from '../support/crash-outbox';
import { disbursementQuote, transfer } from '../support/disbursement-helpers';
import { accessTokenFor, onboardPartner, pollUntil, type OnboardedPartner } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner } from '../support/wallet-users';

/**
 * Crash safety of the transactional outbox (issue 4): a service killed between its commit and the
 * publish still publishes the event once it is back. The stack's own collections and disbursements
 * processes are stopped, so the only relays on the outbox tables are the ones each test starts. The
 * process that serves the request boots with OUTBOX_RELAY_START_DELAY_MS far in the future, so its
 * event is committed but cannot have been published when it is SIGKILLed (no shutdown hook runs);
 * a fresh process of the same service must then publish it, and only once.
 */
const relayNeverStartsMs = '600000';
const arrivalTimeoutMs = 15_000;
/** Long enough for a second publish of the row (poll interval 200 ms) to have arrived, if there were one. */
const duplicateGraceMs = 1_000;

describe('crash safety: a service killed between its commit and the publish', () => {
  let stack: Stack;
  let database: Pool;
  let bus: BusRecorder;
  let partner: OnboardedPartner;
  let token: string;

  beforeAll(async () => {
    stack = await startStack({ logLevel: 'warn' });
    await Promise.all([stack.stopService('collections'), stack.stopService('disbursements')]);
    database = new Pool({ connectionString: stack.databaseUrl, max: 2 });
    // pool.end() does not wait for its connections to close, and the database is dropped (WITH FORCE) right after:
    // a connection still closing is then terminated, which is expected, not an error of the test.
    database.on('error', () => undefined);
    bus = await recordBusEvents(stack.amqpUrl, stack.busExchange, '#');
    partner = await onboardPartner(stack, { rateLimitPerMinute: 100_000 });
    await fundPartner(stack, partner.partnerId, 'USD', '1000.00');
    token = await accessTokenFor(stack.client, partner);
  });

  afterAll(async () => {
    await bus?.close();
    await database?.end();
    await stack?.stop();
  });

  /** Kills the process, proves the event is still only in the outbox, restarts the service and proves one publish. */
  async function expectPublishedOnceAfterRestart(service: 'collections' | 'disbursements', referenceId: string, kill: () => Promise<void>): Promise<void> {
    const committed = await outboxRowsFor(database, service, referenceId);
    expect(committed).toEqual([expect.objectContaining({ publishedAt: null, attempts: 0 })]);
    const eventId = committed[0]?.id ?? '';

    await kill();
    expect(await outboxRowsFor(database, service, referenceId)).toEqual([expect.objectContaining({ id: eventId, publishedAt: null, attempts: 0 })]);
    expect(bus.countOf(eventId)).toBe(0);

    await stack.startExtraService(service, {});
    await bus.waitFor(eventId, arrivalTimeoutMs);
    const published = await pollUntil(() => outboxRowsFor(database, service, referenceId), (rows) => rows[0]?.publishedAt != null, arrivalTimeoutMs);
    // attempts counts publish attempts, the successful one included: exactly one publish happened.
    expect(published).toEqual([expect.objectContaining({ id: eventId, publishedAt: expect.any(Date), attempts: 1 })]);
    await new Promise((resolve) => setTimeout(resolve, duplicateGraceMs));
    expect(bus.countOf(eventId)).toBe(1);
  }

  test('when a disbursements process is killed after committing a transfer, then a restarted process publishes disbursement.completed exactly once', async () => {
    const crashing = await stack.startExtraService('disbursements', { OUTBOX_RELAY_START_DELAY_MS: relayNeverStartsMs });
    const gateway = await stack.startExtraGateway({ DISBURSEMENTS_URL: crashing.url });
    const user = await createWalletUser(stack);
    const quote = await disbursementQuote(stack.client, token, user, 12.5);

    const response = await transfer(gateway.client, token, { quoteId: quote.quoteId, externalId: `crash-${quote.quoteId}` });
    expect(response.status).toBe(200);
    const referenceId = (response.body as { data: { referenceId: string } }).data.referenceId;

    await expectPublishedOnceAfterRestart('disbursements', referenceId, () => crashing.kill());
    await gateway.stop();
  });

  test('when a collections process is killed after committing a request, then a restarted process publishes collection.requested exactly once', async () => {
    const crashing = await stack.startExtraService('collections', { OUTBOX_RELAY_START_DELAY_MS: relayNeverStartsMs });
    const gateway = await stack.startExtraGateway({ COLLECTIONS_URL: crashing.url });
    const user = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
    await creditWallet(stack, user, 'USD', '100.00');

    const referenceId = await createCollection(gateway.client, token, { phone: user.localPhone, amount: 7.25, currency: 'USD' });

    await expectPublishedOnceAfterRestart('collections', referenceId, () => crashing.kill());
    await gateway.stop();
  });

  test('when a production configuration asks for a delayed relay, then the services refuse to boot', () => {
    const production = { ENVIRONMENT: 'production', OUTBOX_RELAY_START_DELAY_MS: '1000' };
    expect(() => readCollectionsConfig(production)).toThrow('OUTBOX_RELAY_START_DELAY_MS');
    expect(() => readDisbursementsConfig(production)).toThrow('OUTBOX_RELAY_START_DELAY_MS');
    expect(readDisbursementsConfig({ ENVIRONMENT: 'production' }).OUTBOX_RELAY_START_DELAY_MS).toBe(0);
  });
});
