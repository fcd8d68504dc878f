import { randomBytes, randomUUID } from 'node:crypto';
import { connectBus, type Bus } from '@pwa/bus';
import { createEventEnvelope, type EventEnvelope, type WalletDisbursementReversedData } from '@pwa/contracts';
import { createLogger } from '@pwa/logging';
import { deleteExchange } from '../../../../test/support/cleanup';
import { newReferenceId } from '../../src/domain/reference-id';
import { walletEventsConsumer } from '../../src/use-cases/record-reversal';
import { startDisbursementsHarness, type DisbursementsHarness } from './disbursements-harness';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { amqp: string } };

/**
 * The consumer of the wallet's reversals (decision 0063), booted in-process on the real servers:
 * a wallet.disbursement_reversed published on the bus is recorded once on the disbursement, shown
 * by the status endpoint as `reversal` (status stays completed), and becomes one
 * disbursement.reversed in the outbox; duplicates, a second event for the same disbursement and
 * events that disagree with the disbursement change nothing.
 */
describe('wallet.disbursement_reversed consumed by disbursements', () => {
  const exchange = `pwa.disbursements-reversal-it.${randomBytes(4).toString('hex')}`;
  const partnerId = randomUUID();
  let harness: DisbursementsHarness;
  let bus: Bus;

  beforeAll(async () => {
    // No call reaches the stand-in: these disbursements are written as the transfer call leaves them.
    harness = await startDisbursementsHarness((_request, send) => send(500, { error: 'not used' }), { BUS_EXCHANGE: exchange, OUTBOX_POLL_INTERVAL_MS: '3600000' });
    bus = await connectBus({ url: serverUrls().amqp, exchange, serviceName: 'wallet-test', logger: createLogger({ service: 'wallet-test', level: 'silent', environment: 'sandbox' }) });
  });

  afterAll(async () => {
    await bus?.close();
    await harness?.stop();
    await deleteExchange(serverUrls().amqp, exchange);
  });

  interface Completed {
    referenceId: string;
    transactionId: string;
    externalId: string;
  }

  async function completedDisbursement(status: 'completed' | 'processing' = 'completed'): Promise<Completed> {
    const referenceId = newReferenceId();
    const transactionId = `TXN-${randomBytes(8).toString('hex').toUpperCase()}`;
    const externalId = `payout-${randomUUID()}`;
    await harness.sql.query(
      `INSERT INTO disbursements (disbursement_id, reference_id, partner_id, external_id, quote_id, phone, recipient_name, currency, amount_minor, fee_minor, status, transaction_id, completed_at, settled_at)
       VALUES (gen_random_uuid(), $1, $2, $3, gen_random_uuid(), '+231770000001', 'Musu Kollie', 'USD', 1250, 13, $4, $5, $6, $6)`,
      [referenceId, partnerId, externalId, status, status === 'completed' ? transactionId : null, status === 'completed' ? new Date('2026-11-28T10:00:00.000Z') : null],
    );
    return { referenceId, transactionId, externalId };
  }

  function reversedEvent(disbursement: Completed, overrides: Partial<WalletDisbursementReversedData> = {}): EventEnvelope<WalletDisbursementReversedData> {
    const eventId = randomUUID();
    const data: WalletDisbursementReversedData = {
      eventId,
      event: 'wallet.disbursement_reversed',
      partnerId,
      referenceId: disbursement.referenceId,
      disbursementTransactionId: disbursement.transactionId,
      reversalTransactionId: `TXN-${randomBytes(8).toString('hex').toUpperCase()}`,
      amount: 12.5,
      currency: 'USD',
      reversedAt: '2026-11-28T11:30:00.125Z',
      ...overrides,
    };
    return createEventEnvelope({ type: data.event, data, producer: 'wallet', eventId, occurredAt: new Date(data.reversedAt) });
  }

  /** Waits until the consumer has marked these events processed (or gives up after 10 s). */
  async function consumed(eventIds: readonly string[]): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const result = await harness.sql.query<{ count: string }>(`SELECT count(*) FROM processed_events WHERE consumer = $1 AND event_id = ANY($2::uuid[])`, [walletEventsConsumer, eventIds]);
      if (Number(result.rows[0]?.count) === eventIds.length) return;
      if (Date.now() > deadline) throw new Error(`events ${eventIds.join(', ')} were not consumed within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function outboxEventsOf(referenceId: string): Promise<{ type: string; producer: string; data: Record<string, unknown> }[]> {
    const result = await harness.sql.query<{ payload: { type: string; producer: string; data: Record<string, unknown> } }>(
      `SELECT payload FROM outbox WHERE payload->'data'->>'referenceId' = $1 ORDER BY created_at`,
      [referenceId],
    );
    return result.rows.map((row) => row.payload);
  }

  test('when the wallet reports a reversal, then the status endpoint shows it (status still completed) and one disbursement.reversed is in the outbox; the same event again, or another one, changes nothing', async () => {
    const disbursement = await completedDisbursement();
    const event = reversedEvent(disbursement);
    await bus.publish(event);
    await consumed([event.eventId]);

    const status = await harness.call('GET', `/partner/v1/disbursement/${disbursement.referenceId}`, { partner: partnerId });
    expect(status.status).toBe(200);
    const reversal = { transactionId: event.data.reversalTransactionId, amount: 12.5, currency: 'USD', reversedAt: '2026-11-28T11:30:00.125Z' };
    expect(status.body.data).toEqual({
      referenceId: disbursement.referenceId,
      externalId: disbursement.externalId,
      status: 'completed',
      transactionId: disbursement.transactionId,
      amount: 12.5,
      currency: 'USD',
      fee: 0.13,
      totalDebit: 12.63,
      netAmount: 12.5,
      createdAt: expect.any(String),
      completedAt: '2026-11-28T10:00:00.000Z',
      reversal,
    });
    expect(await outboxEventsOf(disbursement.referenceId)).toEqual([
      expect.objectContaining({
        ...expectEnvelope('disbursement.reversed'),
        data: {
          eventId: expect.any(String),
          partnerId,
          event: 'disbursement.reversed',
          referenceId: disbursement.referenceId,
          externalId: disbursement.externalId,
          amount: 12.5,
          currency: 'USD',
          fee: 0.13,
          totalDebit: 12.63,
          status: 'completed',
          transactionId: disbursement.transactionId,
          timestamp: '2026-11-28T11:30:00.125Z',
          reversal,
        },
      }),
    ]);

    // A redelivery (same eventId), and a second report of a reversal of the same disbursement.
    const another = reversedEvent(disbursement, { reversalTransactionId: 'TXN-00000000000000AA' });
    await bus.publish(event);
    await bus.publish(another);
    await consumed([another.eventId]);
    expect((await harness.call('GET', `/partner/v1/disbursement/${disbursement.referenceId}`, { partner: partnerId })).body.data.reversal).toEqual(reversal);
    expect(await outboxEventsOf(disbursement.referenceId)).toHaveLength(1);
  });

  test('when the report disagrees with the disbursement (amount, partner, transaction) or names no disbursement, then nothing is recorded and no event written', async () => {
    const disbursement = await completedDisbursement();
    const disagreeing = [
      reversedEvent(disbursement, { amount: 12 }),
      reversedEvent(disbursement, { partnerId: randomUUID() }),
      reversedEvent(disbursement, { disbursementTransactionId: 'TXN-0000000000000001' }),
      reversedEvent({ ...disbursement, referenceId: newReferenceId() }),
    ];
    for (const event of disagreeing) await bus.publish(event);
    await consumed(disagreeing.map((event) => event.eventId));
    const status = await harness.call('GET', `/partner/v1/disbursement/${disbursement.referenceId}`, { partner: partnerId });
    expect(status.body.data.status).toBe('completed');
    expect(status.body.data).not.toHaveProperty('reversal');
    expect(await outboxEventsOf(disbursement.referenceId)).toEqual([]);
  });

  test('when the database is asked to record a reversal on a disbursement that is not completed, then it refuses', async () => {
    const processing = await completedDisbursement('processing');
    await expect(
      harness.sql.query(`UPDATE disbursements SET reversal_transaction_id = 'TXN-AB', reversed_at = now() WHERE reference_id = $1`, [processing.referenceId]),
    ).rejects.toThrow(/disbursements_reversal_only_when_completed/);
    const completed = await completedDisbursement();
    await expect(harness.sql.query(`UPDATE disbursements SET reversal_transaction_id = 'TXN-AB' WHERE reference_id = $1`, [completed.referenceId])).rejects.toThrow(
      /disbursements_reversal_all_or_nothing/,
    );
  });
});

function expectEnvelope(type: string): Record<string, unknown> {
  return { eventId: expect.any(String), type, version: 1, occurredAt: '2026-11-28T11:30:00.125Z', producer: 'disbursements' };
}
