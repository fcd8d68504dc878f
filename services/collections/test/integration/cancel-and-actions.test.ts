import { randomBytes, randomUUID } from 'node:crypto';
import { seriesValue } from '../../../../test/support/prometheus-text';
import { quotesAndWalletStandIn, standInUserPhone, startCollectionsHarness, type CollectionsHarness, type JsonAnswer, type StandInSend } from './collections-harness';

/**
 * Issue 19, the collections service booted in-process on real Postgres and RabbitMQ: the partner's
 * cancel beside the user's approve and decline, each one conditional UPDATE naming its actor, and
 * cancel racing approve. Quotes and the wallet are the harness's stand-in answering by their
 * contracts (libs/contracts internal), as in collection-metrics.test.ts; the stand-in's record of
 * postings is the wallet's ledger here: money moved for exactly the transferIds it posted.
 */

const userPhone = standInUserPhone;
/** What the stand-in wallet posted: transferId (the collection's id) → transactionId. */
const postedTransfers = new Map<string, string>();

function postTransfer(body: Record<string, string>, send: StandInSend): void {
  const transferId = body.transferId ?? '';
  // Idempotent by transferId, as the wallet is: a re-drive gets the same transaction.
  const transactionId = postedTransfers.get(transferId) ?? `TXN-${randomBytes(8).toString('hex').toUpperCase()}`;
  postedTransfers.set(transferId, transactionId);
  send(200, { transferId, transactionId, postedAt: new Date().toISOString(), status: 'posted' });
}

describe('collections: cancel and the actions on a pending collection', () => {
  const partnerId = randomUUID();
  const otherPartnerId = randomUUID();
  let harness: CollectionsHarness;

  beforeAll(async () => {
    // The sweeper stays away during these tests, so a collection past its window is expired on touch.
    harness = await startCollectionsHarness(quotesAndWalletStandIn(postTransfer), { EXPIRY_SWEEP_INTERVAL_MS: '600000' });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const call = (method: 'GET' | 'POST', path: string, options: { partner?: string; body?: unknown } = {}): Promise<JsonAnswer> => harness.call(method, path, options);

  const cancel = (referenceId: string, partner = partnerId): Promise<JsonAnswer> => call('POST', `/partner/v1/collection/${referenceId}/cancel`, { partner });
  const approve = (referenceId: string, phone = userPhone): Promise<JsonAnswer> => call('POST', `/internal/app/collections/${referenceId}/approve`, { body: { phone } });
  const decline = (referenceId: string, phone = userPhone): Promise<JsonAnswer> => call('POST', `/internal/app/collections/${referenceId}/decline`, { body: { phone } });

  async function requestCollection(): Promise<string> {
    const answer = await call('POST', '/partner/v1/collection/request', { partner: partnerId, body: { quoteId: randomUUID(), externalId: `cancel-${randomUUID()}` } });
    if (answer.status !== 202) throw new Error(`collection request failed: ${JSON.stringify(answer.body)}`);
    return answer.body.data.referenceId as string;
  }

  async function rowOf(referenceId: string): Promise<{ id: string; status: string; transaction_id: string | null; external_id: string }> {
    const result = await harness.sql.query<{ id: string; status: string; transaction_id: string | null; external_id: string }>(
      'SELECT id, status, transaction_id, external_id FROM collection_requests WHERE reference_id = $1',
      [referenceId],
    );
    const row = result.rows[0];
    if (row === undefined) throw new Error(`no row for ${referenceId}`);
    return row;
  }

  /** The events of a collection in the outbox, by routing key (published or not). */
  async function outboxEventsOf(referenceId: string): Promise<string[]> {
    const result = await harness.sql.query<{ routing_key: string }>("SELECT routing_key FROM outbox WHERE payload -> 'data' ->> 'referenceId' = $1 ORDER BY created_at", [referenceId]);
    return result.rows.map((row) => row.routing_key);
  }

  const scrape = (): Promise<string> => harness.scrape();

  test('when the partner cancels its pending collection, then it is cancelled with collection.cancelled, the user no longer sees it, its externalId is free, and it is counted', async () => {
    const before = await scrape();
    const referenceId = await requestCollection();
    const pendingBefore = await call('GET', `/internal/app/users/${encodeURIComponent(userPhone)}/collections`);
    expect(pendingBefore.body.data.collections.map((collection: { referenceId: string }) => collection.referenceId)).toContain(referenceId);

    const answer = await cancel(referenceId);

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ referenceId, status: 'cancelled', amount: 10, currency: 'USD', fee: 0.2 });
    expect(answer.body.data.transactionId).toBeUndefined();
    expect((await call('GET', `/partner/v1/collection/${referenceId}`, { partner: partnerId })).body.data.status).toBe('cancelled');
    const pendingAfter = await call('GET', `/internal/app/users/${encodeURIComponent(userPhone)}/collections`);
    expect(pendingAfter.body.data.collections.map((collection: { referenceId: string }) => collection.referenceId)).not.toContain(referenceId);
    expect(await outboxEventsOf(referenceId)).toEqual(['collection.requested', 'collection.cancelled']);
    const row = await rowOf(referenceId);
    expect(postedTransfers.has(row.id)).toBe(false);
    // cancelled frees the externalId, as declined and expired do.
    const reused = await call('POST', '/partner/v1/collection/request', { partner: partnerId, body: { quoteId: randomUUID(), externalId: row.external_id } });
    expect(reused.status).toBe(202);
    const listed = await call('GET', '/partner/v1/collections?status=cancelled', { partner: partnerId });
    expect(listed.body.data.items.map((item: { referenceId: string }) => item.referenceId)).toContain(referenceId);
    const after = await scrape();
    expect((seriesValue(after, 'collections_terminal_total', { state: 'cancelled' }) ?? 0) - (seriesValue(before, 'collections_terminal_total', { state: 'cancelled' }) ?? 0)).toBe(1);
  });

  test('when a collection is already cancelled, approved or declined, then cancel, approve and decline answer 409 PKC_6004 naming its status, and nothing more is written', async () => {
    const cancelled = await requestCollection();
    const approved = await requestCollection();
    const declined = await requestCollection();
    expect((await cancel(cancelled)).status).toBe(200);
    expect((await approve(approved)).body.data.status).toBe('completed');
    expect((await decline(declined)).body.data.status).toBe('declined');

    const answers = {
      cancelTwice: await cancel(cancelled),
      approveCancelled: await approve(cancelled),
      declineCancelled: await decline(cancelled),
      cancelApproved: await cancel(approved),
      cancelDeclined: await cancel(declined),
    };

    for (const answer of Object.values(answers)) expect([answer.status, answer.body.code]).toEqual([409, 'PKC_6004']);
    expect(answers.cancelTwice.body.message).toBe(`Collection ${cancelled} is already cancelled; it cannot be changed`);
    expect(answers.cancelApproved.body.message).toBe(`Collection ${approved} is already completed; it cannot be changed`);
    expect(answers.cancelDeclined.body.message).toBe(`Collection ${declined} is already declined; it cannot be changed`);
    expect(await outboxEventsOf(cancelled)).toEqual(['collection.requested', 'collection.cancelled']);
    expect(await outboxEventsOf(approved)).toEqual(['collection.requested', 'collection.completed']);
    expect(await outboxEventsOf(declined)).toEqual(['collection.requested', 'collection.declined']);
  });

  test('when another partner cancels, another user approves or declines, or the referenceId is unknown, then 403 PKC_6005 or 404 PKC_6002, and the collection stays pending', async () => {
    const referenceId = await requestCollection();

    const foreignCancel = await cancel(referenceId, otherPartnerId);
    const foreignApprove = await approve(referenceId, '+231770000099');
    const foreignDecline = await decline(referenceId, '+231770000099');
    const unknown = await cancel('PKC-1718000000000-00000000000000000000000000000000');

    expect([foreignCancel.status, foreignCancel.body.code]).toEqual([403, 'PKC_6005']);
    expect([foreignApprove.status, foreignApprove.body.code]).toEqual([403, 'PKC_6005']);
    expect([foreignDecline.status, foreignDecline.body.code]).toEqual([403, 'PKC_6005']);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'PKC_6002']);
    expect((await rowOf(referenceId)).status).toBe('pending_approval');
    expect(await outboxEventsOf(referenceId)).toEqual(['collection.requested']);
  });

  test('when the window has passed and the sweeper has not run, then cancel answers 410 PKC_6003 and expires it then, with collection.expired once', async () => {
    const referenceId = await requestCollection();
    await harness.sql.query("UPDATE collection_requests SET expires_at = now() - interval '1 second' WHERE reference_id = $1", [referenceId]);

    const first = await cancel(referenceId);
    const second = await cancel(referenceId);
    const approval = await approve(referenceId);

    expect([first.status, first.body.code, second.status, second.body.code, approval.status, approval.body.code]).toEqual([410, 'PKC_6003', 410, 'PKC_6003', 410, 'PKC_6003']);
    expect((await rowOf(referenceId)).status).toBe('expired');
    expect(await outboxEventsOf(referenceId)).toEqual(['collection.requested', 'collection.expired']);
  });

  test('when cancel races the user’s approval on 30 collections, then exactly one wins each time, the loser gets 409 PKC_6004, the wallet posted only the approvals that won, and each cancel’s event is in the outbox', async () => {
    const referenceIds: string[] = [];
    for (let index = 0; index < 30; index += 1) referenceIds.push(await requestCollection());

    const outcomes = await Promise.all(
      referenceIds.map(async (referenceId) => {
        const [cancelled, approved] = await Promise.all([cancel(referenceId), approve(referenceId)]);
        return { referenceId, cancelled, approved, row: await rowOf(referenceId) };
      }),
    );

    for (const { referenceId, cancelled, approved, row } of outcomes) {
      const cancelWon = cancelled.status === 200;
      const approveWon = approved.status === 200 || approved.status === 202;
      expect({ referenceId, oneWinner: cancelWon !== approveWon }).toEqual({ referenceId, oneWinner: true });
      if (cancelWon) {
        expect([approved.status, approved.body.code, row.status, row.transaction_id]).toEqual([409, 'PKC_6004', 'cancelled', null]);
        expect(postedTransfers.has(row.id)).toBe(false);
        expect(await outboxEventsOf(referenceId)).toEqual(['collection.requested', 'collection.cancelled']);
      } else {
        expect([cancelled.status, cancelled.body.code, approved.body.data.status, row.status]).toEqual([409, 'PKC_6004', 'completed', 'completed']);
        expect(row.transaction_id).toBe(postedTransfers.get(row.id));
        expect(await outboxEventsOf(referenceId)).toEqual(['collection.requested', 'collection.completed']);
      }
    }
    // The wallet's record: one posting per approval that won, none for a cancelled collection.
    const approvedIds = outcomes.filter(({ row }) => row.status === 'completed').map(({ row }) => row.id).sort();
    expect(outcomes.map(({ row }) => row.id).filter((id) => postedTransfers.has(id)).sort()).toEqual(approvedIds);
    const winners = outcomes.map(({ cancelled }) => (cancelled.status === 200 ? 'cancel' : 'approve'));
    console.log(`cancel racing approve: cancel won ${winners.filter((winner) => winner === 'cancel').length} of ${winners.length}`);
  });
});
