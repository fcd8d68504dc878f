import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from '@pwa/config';
import type { walletCheckAnswerSchema } from '@pwa/contracts';
import { startCollectionsHarness, type CollectionsHarness, type JsonAnswer, type StandInRequest, type StandInSend } from './collections-harness';

/**
 * Issue 19, the refund paths the stack cannot stage on demand, with the collections service booted
 * in-process on real Postgres and RabbitMQ and the wallet a stand-in answering by its contract
 * (libs/contracts internal/wallet): a check the wallet cannot answer (nothing written), a posting the wallet refuses after its check had passed (the
 * partner spent the money in between), and a posting the wallet never answers, which the refund
 * recovery worker abandons by cancelling the transfer id. Either way the refund ends failed with
 * refund.failed, nothing moved, and the amount and the externalId are free again.
 */

type PostingBehaviour = 'post' | 'refuse_4002' | 'no_answer';

const userPhone = '+231880000002';

describe('collections: refunds the wallet refuses or never answers', () => {
  const partnerId = randomUUID();
  let harness: CollectionsHarness;
  let posting: PostingBehaviour = 'post';
  let checkAnswers = true;
  /** transferId → transactionId, and the ids the stand-in was asked to cancel. */
  const posted = new Map<string, string>();
  const cancelled = new Set<string>();

  function standInWallet({ url, body }: StandInRequest<Record<string, string>>, send: StandInSend): void {
    if (url === '/internal/checks') {
      if (!checkAnswers) return send(502, { error: 'bad gateway' });
      return send(200, {
        recipient: { name: 'Comfort Doe', phone: userPhone, accountStatus: 'active', kycStatus: 'approved', hasWallet: true },
        userBalanceMinor: '0',
        partnerBalanceMinor: '100000',
      } satisfies z.input<typeof walletCheckAnswerSchema>);
    }
    if (url === '/internal/transfers') {
      const transferId = body.transferId ?? '';
      if (body.type !== 'refund' || body.feeMinor !== '0') return send(400, { success: false, code: 'PKC_2008', message: 'not a refund' });
      if (cancelled.has(transferId)) return send(409, { success: false, code: 'PKC_7004', message: 'cancelled' });
      if (posting === 'refuse_4002') return send(400, { success: false, code: 'PKC_4002', message: 'Partner balance insufficient for amount plus fee' });
      if (posting === 'no_answer') return send(502, { error: 'bad gateway' });
      const transactionId = posted.get(transferId) ?? `TXN-${randomBytes(8).toString('hex').toUpperCase()}`;
      posted.set(transferId, transactionId);
      return send(200, { transferId, transactionId, postedAt: new Date().toISOString(), status: 'posted' });
    }
    const cancel = /^\/internal\/transfers\/([^/]+)\/cancel$/.exec(url);
    if (cancel) {
      const transferId = decodeURIComponent(cancel[1] ?? '');
      const transactionId = posted.get(transferId);
      if (transactionId !== undefined) return send(200, { transferId, state: 'posted', transactionId, postedAt: new Date().toISOString() });
      cancelled.add(transferId);
      return send(200, { transferId, state: 'cancelled' });
    }
    return send(404, { success: false, code: 'PKC_6002', message: 'No such endpoint' });
  }

  beforeAll(async () => {
    harness = await startCollectionsHarness(standInWallet, {
      UPSTREAM_TIMEOUT_MS: '1000',
      // The first re-drive waits max(RECOVERY_DELAY_MS, UPSTREAM_TIMEOUT_MS + 1 s); the second attempt already cancels.
      RECOVERY_DELAY_MS: '200',
      RECOVERY_INTERVAL_MS: '200',
      RECOVERY_POSTING_ATTEMPTS_MAX: '1',
      // The breaker must not open on the stand-in's deliberate 502s.
      BREAKER_VOLUME_THRESHOLD: '1000',
    });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  /** A completed collection of 20.00 USD, as an approval's posting leaves it. */
  async function completedCollection(): Promise<string> {
    const referenceId = `PKC-${Date.now()}-${randomBytes(16).toString('hex').toUpperCase()}`;
    await harness.sql.query(
      `INSERT INTO collection_requests (id, reference_id, partner_id, external_id, quote_id, phone, recipient_name, currency, amount_minor, fee_minor,
                                        status, expires_at, approved_at, resolved_at, transaction_id, posting_attempts)
       VALUES ($1, $2, $3, $4, $5, $6, 'Comfort Doe', 'USD', 2000, 20, 'completed', now(), now(), now(), 'TXN-0A1B2C3D4E5F6071', 1)`,
      [randomUUID(), referenceId, partnerId, `order-${randomUUID()}`, randomUUID(), userPhone],
    );
    return referenceId;
  }

  const refund = (referenceId: string, body: unknown): Promise<JsonAnswer> => harness.call('POST', `/partner/v1/collection/${referenceId}/refund`, { partner: partnerId, body });
  const read = async (path: string): Promise<any> => (await harness.call('GET', path, { partner: partnerId })).body.data;
  const outboxOf = async (referenceId: string): Promise<{ routing_key: string; payload: any }[]> =>
    (await harness.sql.query<{ routing_key: string; payload: any }>("SELECT routing_key, payload FROM outbox WHERE payload -> 'data' ->> 'referenceId' = $1 ORDER BY created_at", [referenceId])).rows;

  test('when the wallet cannot answer the check, then 503 PKC_7003 and nothing is written: no refund row, no reservation, no event', async () => {
    const collection = await completedCollection();
    const before = await harness.sql.query('SELECT (SELECT count(*) FROM collection_refunds) AS refunds, (SELECT count(*) FROM outbox) AS events');
    checkAnswers = false;
    try {
      const answer = await refund(collection, { externalId: `refund-${randomUUID()}` });
      expect([answer.status, answer.body.code]).toEqual([503, 'PKC_7003']);
    } finally {
      checkAnswers = true;
    }
    expect((await harness.sql.query('SELECT (SELECT count(*) FROM collection_refunds) AS refunds, (SELECT count(*) FROM outbox) AS events')).rows).toEqual(before.rows);
    expect((await read(`/partner/v1/collection/${collection}`)).refundedAmount).toBe(0);
  });

  test('when the wallet refuses the posting after its check passed, then 400 PKC_4002 names the failed refund, refund.failed is in the outbox, and the amount and the externalId are free again', async () => {
    const collection = await completedCollection();
    const externalId = `refund-${randomUUID()}`;
    posting = 'refuse_4002';

    const refused = await refund(collection, { externalId, amount: 5 });

    expect([refused.status, refused.body.code, refused.body.status]).toEqual([400, 'PKC_4002', 'failed']);
    const refundId = refused.body.referenceId as string;
    expect(refused.body.message).toContain(refundId);
    expect(await read(`/partner/v1/refund/${refundId}`)).toMatchObject({ status: 'failed', amount: 5, failureReason: { code: 'PKC_4002' }, collectionRefundedAmount: 0 });
    expect((await read(`/partner/v1/collection/${collection}`)).refundedAmount).toBe(0);
    const events = await outboxOf(refundId);
    expect(events.map((event) => event.routing_key)).toEqual(['refund.failed']);
    expect(events[0]?.payload.data).toMatchObject({ status: 'failed', failureCode: 'PKC_4002', collectionReferenceId: collection, fee: 0 });

    posting = 'post';
    const again = await refund(collection, { externalId });
    expect([again.status, again.body.data?.amount, again.body.data?.collectionRefundedAmount]).toEqual([200, 20, 20]);
  });

  test('when the wallet never answers the posting, then 202 processing, and the recovery worker cancels the transfer id: failed with PKC_7003, refund.failed, and the amount refundable again', async () => {
    const collection = await completedCollection();
    posting = 'no_answer';

    const processing = await refund(collection, { externalId: `refund-${randomUUID()}`, amount: 7.5 });

    expect([processing.status, processing.body.data?.status, processing.body.data?.collectionRefundedAmount]).toEqual([202, 'processing', 7.5]);
    const refundId = processing.body.data.referenceId as string;
    const deadline = Date.now() + 15_000;
    let settled = await read(`/partner/v1/refund/${refundId}`);
    while (settled.status === 'processing' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      settled = await read(`/partner/v1/refund/${refundId}`);
    }
    expect(settled).toMatchObject({ status: 'failed', failureReason: { code: 'PKC_7003' }, collectionRefundedAmount: 0 });
    expect(cancelled.has((await harness.sql.query<{ id: string }>('SELECT id FROM collection_refunds WHERE reference_id = $1', [refundId])).rows[0]?.id ?? '')).toBe(true);
    expect((await outboxOf(refundId)).map((event) => event.routing_key)).toEqual(['refund.failed']);
    expect((await read(`/partner/v1/collection/${collection}`)).refundedAmount).toBe(0);
  });
});
