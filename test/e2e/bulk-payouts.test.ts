import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { centsOfApiAmount, disbursementQuote, transfer } from '../support/disbursement-helpers';
import type { HttpsJsonClient, JsonResponse } from '../support/https-client';
import { ledgerBalances } from '../support/ledger-balances';
import { accessTokenFor, pollUntil } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, fundPartner, setLimit, updateWalletUser, type WalletUser } from '../support/wallet-users';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 20 through the gateway over HTTPS, as a partner pays many people at once: a bulk quote
 * with valid and invalid items (each with its own code), the bulk transfer (202) and its progress,
 * the balances to the cent, the ledger's invariants after every test, every item's webhook and
 * bulk.completed; a bulk whose balance runs out midway; a bulk processor killed in the middle of a
 * bulk and restarted, after which every item is posted exactly once.
 */
interface TestPartner {
  partnerId: string;
  token: string;
}

interface BulkItemInput {
  phone: string;
  amount: number;
  externalId: string;
  note?: string;
}

const bulkIdPattern = /^PKB-\d{13,16}-[0-9A-F]{24}$/;
const finalWithinMs = 60_000;

describe('bulk payouts', () => {
  let stack: Stack;
  let endpoint: WebhookReceiver;
  let database: Pool;
  /** Platinum users whose disbursement count limits this stack raises, so one user can receive many items. */
  let users: WalletUser[];

  beforeAll(async () => {
    endpoint = await startWebhookReceiver();
    stack = await startStack({
      logLevel: 'warn',
      serviceEnv: {
        disbursements: { OUTBOX_POLL_INTERVAL_MS: '100', BULK_PROCESSOR_INTERVAL_MS: '200' },
        webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000', WEBHOOK_RETRY_DELAYS_MS: '200,200,200' },
      },
    });
    database = new Pool({ connectionString: stack.databaseUrl, max: 2 });
    database.on('error', () => undefined);
    await setLimit(stack, { tier: 'Platinum', type: 'disbursement', currency: 'USD' }, { perHourCount: 10_000, perDayCount: 10_000 });
    users = await Promise.all(Array.from({ length: 4 }, () => createWalletUser(stack, { tier: 'Platinum', currencies: ['USD'] })));
  });

  afterEach(async () => {
    if (stack) expect(await (await fetch(`${stack.internalUrls.wallet}/internal/ledger/invariants`)).json()).toMatchObject({ ok: true, problems: [] });
  });

  afterAll(async () => {
    await database?.end();
    await endpoint?.close();
    await stack?.stop();
  });

  async function onboard(funds: string, webhookUrl?: string): Promise<TestPartner> {
    const args = ['onboard', '--name', `Bulk partner ${Math.random().toString(36).slice(2, 8)}`, '--permissions', 'disbursement', '--rate-limit', '100000'];
    if (webhookUrl !== undefined) args.push('--webhook-url', webhookUrl);
    const { partnerId, clientId, clientSecret } = (await stack.operator(args)) as Record<string, string>;
    if (funds !== '0') await fundPartner(stack, partnerId ?? '', 'USD', funds);
    return { partnerId: partnerId ?? '', token: await accessTokenFor(stack.client, { clientId: clientId ?? '', clientSecret: clientSecret ?? '' }) };
  }

  const quoteBulk = (client: HttpsJsonClient, partner: TestPartner, body: unknown): Promise<JsonResponse> =>
    client.post('/partner/v1/disbursement/bulk/quote', body, { bearer: partner.token });
  const transferBulk = (client: HttpsJsonClient, partner: TestPartner, body: unknown): Promise<JsonResponse> =>
    client.post('/partner/v1/disbursement/bulk/transfer', body, { bearer: partner.token });
  /** Through the stack's gateway, or the one a test put in front of its own disbursements process. */
  let reader: () => HttpsJsonClient = () => stack.client;
  const getBulk = (partner: TestPartner, bulkId: string, query = ''): Promise<JsonResponse> =>
    reader().get(`/partner/v1/disbursement/bulk/${encodeURIComponent(bulkId)}${query}`, { bearer: partner.token });

  async function finalBulk(partner: TestPartner, bulkId: string): Promise<Record<string, any>> {
    const answer = await pollUntil(() => getBulk(partner, bulkId), (response) => response.body?.data?.status !== 'processing', finalWithinMs);
    expect(answer.status).toBe(200);
    return answer.body.data as Record<string, any>;
  }

  /** Every item of the bulk, page by page (limit 2 proves the cursor), in the partner's order. */
  async function itemsOf(partner: TestPartner, bulkId: string, limit = 100): Promise<Record<string, any>[]> {
    const items: Record<string, any>[] = [];
    let cursor: string | null = null;
    do {
      const page: JsonResponse = await getBulk(partner, bulkId, `?limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(page.status).toBe(200);
      items.push(...(page.body.data.items.items as Record<string, any>[]));
      cursor = page.body.data.items.nextCursor as string | null;
    } while (cursor !== null);
    return items;
  }

  /** Partner, fee revenue and each user's balance in cents, from the ledger. */
  async function money(partner: TestPartner, people: readonly WalletUser[]): Promise<{ partner: bigint; fees: bigint; users: bigint[] }> {
    const readings = await Promise.all(people.map((user) => ledgerBalances(stack.databaseUrl, user.phone, partner.partnerId, 'USD')));
    return { partner: readings[0]?.partnerMinor ?? 0n, fees: readings[0]?.feeRevenueMinor ?? 0n, users: readings.map((reading) => reading.userMinor ?? 0n) };
  }

  /** The wallet postings of these disbursements' references: one per item posted exactly once. */
  async function postingsPerReference(referenceIds: readonly string[]): Promise<Map<string, number>> {
    const result = await database.query<{ reference_id: string; postings: string }>(
      `SELECT reference_id, count(*)::text AS postings FROM wallet.transfers WHERE reference_id = ANY ($1::text[]) AND state = 'posted' GROUP BY reference_id`,
      [referenceIds],
    );
    return new Map(result.rows.map((row) => [row.reference_id, Number(row.postings)]));
  }

  /** The events the disbursements service wrote to its outbox about these references, by type. */
  async function outboxEventsPerReference(referenceIds: readonly string[]): Promise<Map<string, string[]>> {
    const result = await database.query<{ reference_id: string; routing_key: string }>(
      `SELECT payload->'data'->>'referenceId' AS reference_id, routing_key FROM disbursements.outbox WHERE payload->'data'->>'referenceId' = ANY ($1::text[])`,
      [referenceIds],
    );
    const events = new Map<string, string[]>();
    for (const row of result.rows) events.set(row.reference_id, [...(events.get(row.reference_id) ?? []), row.routing_key]);
    return events;
  }

  function webhooksAbout(key: 'referenceId' | 'bulkId', value: string): Record<string, unknown>[] {
    return endpoint.received.map((hook) => JSON.parse(hook.body) as Record<string, unknown>).filter((payload) => payload[key] === value);
  }

  const item = (user: WalletUser, amount: number, note?: string): BulkItemInput => ({ phone: user.localPhone, amount, externalId: `pay-${randomUUID()}`, ...(note === undefined ? {} : { note }) });

  test('when a bulk mixes valid and invalid items, then each invalid item has its code, the valid ones are paid to the cent with their own disbursement, webhook and statement line, and bulk.completed follows', async () => {
    const partner = await onboard('5000.00', endpoint.url);
    const [first, second] = users as [WalletUser, WalletUser];
    const frozen = await createWalletUser(stack, { tier: 'Platinum', currencies: ['USD'] });
    await updateWalletUser(stack, frozen, ['--freeze', 'USD']);
    const single = await disbursementQuote(stack.client, partner.token, first, 1);
    const held = `held-${randomUUID()}`;
    expect((await transfer(stack.client, partner.token, { quoteId: single.quoteId, externalId: held })).status).toBe(200);
    const shared = `shared-${randomUUID()}`;
    const items: unknown[] = [
      item(first, 10.5, 'November salary'),
      item(second, 20),
      { phone: '0770000000', amount: 5, externalId: `unknown-${randomUUID()}` },
      { phone: '12345', amount: 5, externalId: `bad-phone-${randomUUID()}` },
      { phone: first.localPhone, amount: 10.005, externalId: `bad-amount-${randomUUID()}` },
      { phone: first.localPhone, amount: 0.5, externalId: `too-small-${randomUUID()}` },
      { phone: first.localPhone, amount: 5, externalId: 'x'.repeat(101) },
      { phone: first.localPhone, amount: 5 },
      { ...item(second, 3), externalId: shared },
      { ...item(first, 4), externalId: shared },
      { ...item(first, 6), externalId: held },
      item(frozen, 7),
      'not an object',
      item(second, 30.25),
    ];
    const before = await money(partner, [first, second]);

    const quoted = await quoteBulk(stack.client, partner, { currency: 'USD', items });
    expect(quoted.status).toBe(200);
    const quote = quoted.body.data;
    expect(quote.items.map((result: any) => result.status === 'valid' ? 'valid' : result.failureReason.code)).toEqual([
      'valid', 'valid', 'PKC_3001', 'PKC_2001', 'PKC_2002', 'PKC_2003', 'PKC_2006', 'PKC_2008', 'PKC_6001', 'PKC_6001', 'PKC_6001', 'PKC_3004', 'PKC_2008', 'valid',
    ]);
    expect(quote.items.map((result: any) => result.index)).toEqual(items.map((_, index) => index));
    expect([quote.itemCount, quote.validCount, quote.invalidCount]).toEqual([14, 3, 11]);
    // Each item refused for its own fields names them under the item, in invalidFields and in its message (issue 29); the others name none.
    const fieldsOf = (result: any) => result.failureReason?.invalidFields?.map((invalid: any) => `${invalid.field}:${invalid.problem}`);
    expect(quote.items.map(fieldsOf)).toEqual([
      undefined, undefined, undefined, ['items.3.phone:wrong_format'], ['items.4.amount:wrong_format'], ['items.5.amount:out_of_range'], ['items.6.externalId:too_long'], ['items.7.externalId:missing'],
      undefined, undefined, undefined, undefined, ['items.12:wrong_type'], undefined,
    ]);
    for (const result of quote.items.filter((entry: any) => entry.failureReason?.invalidFields !== undefined)) {
      for (const invalid of result.failureReason.invalidFields) expect([invalid.field, result.failureReason.message]).toEqual([invalid.field, expect.stringContaining(`${invalid.field} `)]);
      expect(result.failureReason.invalidFields.every((invalid: any) => typeof invalid.expected === 'string')).toBe(true);
    }

    const valid = quote.items.filter((result: any) => result.status === 'valid');
    expect(valid[0]).toMatchObject({ index: 0, phone: first.phone, recipientName: first.name, amount: 10.5 });
    const amountCents = valid.reduce((sum: bigint, result: any) => sum + centsOfApiAmount(result.amount), 0n);
    const feeCents = valid.reduce((sum: bigint, result: any) => sum + centsOfApiAmount(result.fee), 0n);
    expect([centsOfApiAmount(quote.totalAmount), centsOfApiAmount(quote.totalFee), centsOfApiAmount(quote.totalDebit)]).toEqual([amountCents, feeCents, amountCents + feeCents]);
    // Quoting moves nothing and reserves no externalId.
    expect(await money(partner, [first, second])).toEqual(before);

    const externalId = `payroll-${randomUUID()}`;
    const accepted = await transferBulk(stack.client, partner, { bulkQuoteId: quote.bulkQuoteId, externalId });
    expect(accepted.status).toBe(202);
    const bulkId = accepted.body.data.bulkId as string;
    expect(bulkId).toMatch(bulkIdPattern);
    expect(accepted.body.data).toMatchObject({ externalId, currency: 'USD', counts: { total: 3 } });
    // Through the gateway, the bulk records the API client as who confirmed it (x-partner-actor); no public answer shows it.
    const requestedBy = await database.query<{ requested_by: string | null }>('SELECT requested_by FROM disbursements.bulks WHERE bulk_id = $1', [bulkId]);
    expect(requestedBy.rows[0]?.requested_by).toMatch(/^client:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(accepted.body.data).not.toHaveProperty('requestedBy');

    const done = await finalBulk(partner, bulkId);
    expect(done).toMatchObject({ status: 'completed', counts: { total: 3, pending: 0, completed: 3, failed: 0 } });
    expect(centsOfApiAmount(done.completedAmount)).toBe(amountCents);
    const paid = await itemsOf(partner, bulkId, 2);
    expect(paid.map((entry) => [entry.index, entry.status, entry.bulkId])).toEqual([[0, 'completed', bulkId], [1, 'completed', bulkId], [13, 'completed', bulkId]]);
    // The item's note comes back exactly as sent; an item sent without one has no note field.
    expect(paid.map((entry) => entry.note)).toEqual(['November salary', undefined, undefined]);
    expect(paid[1]).not.toHaveProperty('note');

    const after = await money(partner, [first, second]);
    expect(after.partner - before.partner).toBe(-(amountCents + feeCents));
    expect(after.fees - before.fees).toBe(feeCents);
    expect([after.users[0]! - before.users[0]!, after.users[1]! - before.users[1]!]).toEqual([1050n, 2000n + 3025n]);

    // Each item is a disbursement of its own: status endpoint, list by externalId, webhook.
    for (const entry of paid) {
      const status = await stack.client.get(`/partner/v1/disbursement/${entry.referenceId}`, { bearer: partner.token });
      expect(status.body.data).toMatchObject({ referenceId: entry.referenceId, status: 'completed', bulkId, transactionId: expect.stringMatching(/^TXN-/) });
      expect(status.body.data.note).toBe(entry.note);
      const listed = await stack.client.get(`/partner/v1/disbursements?externalId=${encodeURIComponent(entry.externalId)}`, { bearer: partner.token });
      expect(listed.body.data.items.map((row: any) => [row.referenceId, row.note])).toEqual([[entry.referenceId, entry.note]]);
    }
    await pollUntil(() => Promise.resolve(paid.every((entry) => webhooksAbout('referenceId', entry.referenceId).length > 0) && webhooksAbout('bulkId', bulkId).length > 0), (all) => all, 15_000);
    for (const entry of paid) expect(webhooksAbout('referenceId', entry.referenceId)).toEqual([expect.objectContaining({ event: 'disbursement.completed', referenceId: entry.referenceId, externalId: entry.externalId })]);
    expect(webhooksAbout('bulkId', bulkId)).toEqual([expect.objectContaining({ event: 'bulk.completed', status: 'completed', itemCount: 3, completedCount: 3, failedCount: 0 })]);
    const period = `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;
    const statement = await stack.client.get(`/partner/v1/statement?currency=USD&limit=100&${period}`, { bearer: partner.token });
    expect(statement.status).toBe(200);
    const statementReferences = (statement.body.data.items as any[]).map((line) => line.referenceId);
    for (const entry of paid) expect(statementReferences).toContain(entry.referenceId);

    // The same call again (a lost answer) answers the same bulk; the externalId with another bulk quote is 409; the used bulk quote is refused.
    const again = await transferBulk(stack.client, partner, { bulkQuoteId: quote.bulkQuoteId, externalId });
    expect([again.status, again.body.data?.bulkId]).toEqual([200, bulkId]);
    const reused = await transferBulk(stack.client, partner, { bulkQuoteId: quote.bulkQuoteId, externalId: `other-${randomUUID()}` });
    expect([reused.status, reused.body.code]).toEqual([400, 'PKC_5002']);
    const second2 = await quoteBulk(stack.client, partner, { currency: 'USD', items: [item(first, 1)] });
    const taken = await transferBulk(stack.client, partner, { bulkQuoteId: second2.body.data.bulkQuoteId, externalId });
    expect([taken.status, taken.body.code, taken.body.bulkId]).toEqual([409, 'PKC_6001', bulkId]);
    expect(endpoint.contractMismatches).toEqual([]);
  });

  test('when no item is valid or the call itself is malformed, then the answer is 4xx and nothing is stored', async () => {
    const partner = await onboard('100.00');
    const none = await quoteBulk(stack.client, partner, { currency: 'USD', items: [{ phone: '12', amount: 1, externalId: 'a' }, { phone: users[0]!.localPhone, amount: -1, externalId: 'b' }] });
    // No valid item is a business outcome with its own code (PKC_5005, decision 0075), not a malformed body.
    expect([none.status, none.body.code, none.body.items?.map((entry: any) => entry.failureReason.code)]).toEqual([400, 'PKC_5005', ['PKC_2001', 'PKC_2002']]);
    expect(none.body.items.map((entry: any) => entry.failureReason.invalidFields.map((invalid: any) => invalid.field))).toEqual([['items.0.phone'], ['items.1.amount']]);
    for (const [body, code] of [
      [[], 'PKC_2008'],
      [{ currency: 'USD' }, 'PKC_2008'],
      [{ currency: 'USD', items: [] }, 'PKC_2008'],
      [{ currency: 'USD', items: Array.from({ length: 1001 }, () => item(users[0]!, 1)) }, 'PKC_2008'],
      [{ currency: 'EUR', items: [item(users[0]!, 1)] }, 'PKC_2005'],
    ] as const) {
      const answer = await quoteBulk(stack.client, partner, body);
      expect([answer.status, answer.body.code]).toEqual([400, code]);
    }
    const tooMuch = await quoteBulk(stack.client, partner, { currency: 'USD', items: [item(users[0]!, 60), item(users[1]!, 60)] });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([400, 'PKC_4002']);
    for (const [body, code] of [
      [{ externalId: 'x' }, 'PKC_2008'],
      [{ bulkQuoteId: 'not-a-uuid', externalId: 'x' }, 'PKC_2009'],
      [{ bulkQuoteId: randomUUID(), externalId: 'x'.repeat(101) }, 'PKC_2006'],
      [{ bulkQuoteId: randomUUID(), externalId: 'x' }, 'PKC_5001'],
    ] as const) {
      const answer = await transferBulk(stack.client, partner, body);
      expect(answer.body.code).toBe(code);
    }
    const unknown = await getBulk(partner, 'PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'PKC_6002']);
    const count = await database.query<{ count: string }>('SELECT count(*)::text AS count FROM disbursements.bulks WHERE partner_id = $1', [partner.partnerId]);
    expect(count.rows[0]?.count).toBe('0');
  });

  test('when an item has the longest externalId and note the contract allows, in characters outside the BMP, then it is valid and paid', async () => {
    const partner = await onboard('100.00');
    const externalId = '😀'.repeat(100);
    const quoted = await quoteBulk(stack.client, partner, { currency: 'USD', items: [{ phone: users[0]!.localPhone, amount: 1, externalId, note: '𝄞'.repeat(200) }] });
    expect([quoted.status, quoted.body.data?.items?.[0]?.status]).toEqual([200, 'valid']);
    const accepted = await transferBulk(stack.client, partner, { bulkQuoteId: quoted.body.data.bulkQuoteId, externalId });
    expect(accepted.status).toBe(202);
    const done = await finalBulk(partner, accepted.body.data.bulkId);
    expect([done.status, done.externalId]).toEqual(['completed', externalId]);
    expect((await itemsOf(partner, done.bulkId))[0]).toMatchObject({ externalId, status: 'completed', note: '𝄞'.repeat(200) });
  });

  test('when the partner balance runs out midway through a bulk, then the items paid before are completed, the rest fail with PKC_4002, and the balance is exact to the cent', async () => {
    const partner = await onboard('100.00', endpoint.url);
    const [first, second] = users as [WalletUser, WalletUser];
    // Two bulks of 60 each are quoted against 100; the first to be paid leaves only 40 for the second.
    const firstQuote = await quoteBulk(stack.client, partner, { currency: 'USD', items: Array.from({ length: 6 }, (_, index) => item(index % 2 === 0 ? first : second, 10)) });
    const secondQuote = await quoteBulk(stack.client, partner, { currency: 'USD', items: Array.from({ length: 6 }, (_, index) => item(index % 2 === 0 ? first : second, 10)) });
    expect([firstQuote.status, secondQuote.status]).toEqual([200, 200]);
    const before = await money(partner, [first, second]);

    const one = await transferBulk(stack.client, partner, { bulkQuoteId: firstQuote.body.data.bulkQuoteId, externalId: `first-${randomUUID()}` });
    const two = await transferBulk(stack.client, partner, { bulkQuoteId: secondQuote.body.data.bulkQuoteId, externalId: `second-${randomUUID()}` });
    expect([one.status, two.status]).toEqual([202, 202]);
    const [doneOne, doneTwo] = [await finalBulk(partner, one.body.data.bulkId), await finalBulk(partner, two.body.data.bulkId)];
    const outcomes = [...(await itemsOf(partner, doneOne.bulkId)), ...(await itemsOf(partner, doneTwo.bulkId))];
    const completed = outcomes.filter((entry) => entry.status === 'completed');
    const failed = outcomes.filter((entry) => entry.status === 'failed');
    expect(completed.length).toBeGreaterThanOrEqual(6);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((entry) => entry.failureReason?.code === 'PKC_4002')).toBe(true);
    expect([doneOne.status, doneTwo.status].sort()).toEqual(['completed', 'completed_with_failures']);

    const paidCents = completed.reduce((sum, entry) => sum + centsOfApiAmount(entry.totalDebit), 0n);
    const after = await money(partner, [first, second]);
    expect(after.partner).toBe(before.partner - paidCents);
    expect(after.partner).toBeGreaterThanOrEqual(0n);
    expect(after.partner).toBeLessThan(centsOfApiAmount(failed[0]!.totalDebit));
    await pollUntil(() => Promise.resolve(webhooksAbout('bulkId', doneTwo.bulkId).length + webhooksAbout('bulkId', doneOne.bulkId).length), (count) => count === 2, 15_000);
    for (const entry of failed) {
      await pollUntil(() => Promise.resolve(webhooksAbout('referenceId', entry.referenceId)), (hooks) => hooks.length > 0, 15_000);
      expect(webhooksAbout('referenceId', entry.referenceId)).toEqual([expect.objectContaining({ event: 'disbursement.failed', failureReason: expect.objectContaining({ code: 'PKC_4002' }) })]);
    }
  });

  test('when the same bulk quote is transferred five times at once, or two bulks race for one externalId, then the database lets exactly one through each time', async () => {
    const partner = await onboard('1000.00');
    const quoted = await quoteBulk(stack.client, partner, { currency: 'USD', items: [item(users[0]!, 2), item(users[1]!, 3)] });
    const answers = await Promise.all(Array.from({ length: 5 }, () => transferBulk(stack.client, partner, { bulkQuoteId: quoted.body.data.bulkQuoteId, externalId: `race-${randomUUID()}` })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 400, 400, 400, 400]);
    expect(answers.filter((answer) => answer.status === 400).map((answer) => answer.body.code)).toEqual(['PKC_5002', 'PKC_5002', 'PKC_5002', 'PKC_5002']);

    const externalId = `race-${randomUUID()}`;
    const quotes = await Promise.all([0, 1].map(() => quoteBulk(stack.client, partner, { currency: 'USD', items: [item(users[2]!, 1)] })));
    const racing = await Promise.all(quotes.map((quote) => transferBulk(stack.client, partner, { bulkQuoteId: quote.body.data.bulkQuoteId, externalId })));
    expect(racing.map((answer) => [answer.status, answer.body.code]).sort()).toEqual([[202, undefined], [409, 'PKC_6001']]);
    const bulks = await database.query<{ bulk_id: string }>('SELECT bulk_id FROM disbursements.bulks WHERE partner_id = $1', [partner.partnerId]);
    expect(bulks.rows).toHaveLength(2);
    for (const { bulk_id: bulkId } of bulks.rows) expect((await finalBulk(partner, bulkId)).status).toBe('completed');
  });

  test('when two disbursements processes post the same bulk at once, then every item is posted exactly once', async () => {
    const partner = await onboard('1000.00');
    const small = { BULK_BATCH_ITEMS: '7', BULK_PROCESSOR_INTERVAL_MS: '50', OUTBOX_POLL_INTERVAL_MS: '100' };
    const [one, two] = await Promise.all([stack.startExtraService('disbursements', small), stack.startExtraService('disbursements', small)]);
    try {
      const before = await money(partner, users);
      const quoted = await quoteBulk(stack.client, partner, { currency: 'USD', items: Array.from({ length: 150 }, (_, index) => item(users[index % users.length]!, 1.01)) });
      const accepted = await transferBulk(stack.client, partner, { bulkQuoteId: quoted.body.data.bulkQuoteId, externalId: `pair-${randomUUID()}` });
      expect(accepted.status).toBe(202);
      const done = await finalBulk(partner, accepted.body.data.bulkId);
      expect(done).toMatchObject({ status: 'completed', counts: { completed: 150, failed: 0 } });
      const references = (await itemsOf(partner, done.bulkId)).map((entry) => entry.referenceId as string);
      const postings = await postingsPerReference(references);
      expect(references.filter((reference) => postings.get(reference) !== 1)).toEqual([]);
      const events = await outboxEventsPerReference(references);
      expect(references.filter((reference) => (events.get(reference) ?? []).length !== 1)).toEqual([]);
      const after = await money(partner, users);
      expect(before.partner - after.partner).toBe(150n * (101n + centsOfApiAmount(quoted.body.data.items[0].fee)));
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });

  test('when the processing service is killed in the middle of a bulk and started again, then every item is posted exactly once', async () => {
    const partner = await onboard('10000.00');
    // The stack's own disbursements process is replaced by one that posts in small batches, so the bulk is still being posted when it is killed.
    await stack.stopService('disbursements');
    const processing = { BULK_BATCH_ITEMS: '5', BULK_BATCH_TIMEOUT_MS: '1000', BULK_LEASE_MS: '2000', BULK_PROCESSOR_INTERVAL_MS: '100', OUTBOX_POLL_INTERVAL_MS: '100' };
    const crashing = await stack.startExtraService('disbursements', processing);
    const gateway = await stack.startExtraGateway({ DISBURSEMENTS_URL: crashing.url });
    reader = () => gateway.client;
    const items = Array.from({ length: 400 }, (_, index) => item(users[index % users.length]!, 1 + (index % 7) / 100));
    const before = await money(partner, users);

    const quoted = await quoteBulk(gateway.client, partner, { currency: 'USD', items });
    expect(quoted.status).toBe(200);
    const accepted = await transferBulk(gateway.client, partner, { bulkQuoteId: quoted.body.data.bulkQuoteId, externalId: `crash-${randomUUID()}` });
    expect(accepted.status).toBe(202);
    const bulkId = accepted.body.data.bulkId as string;
    const midway = await pollUntil(() => getBulk(partner, bulkId), (response) => (response.body?.data?.counts?.completed ?? 0) >= 20, finalWithinMs);
    await crashing.kill();
    expect(midway.body.data.counts.pending).toBeGreaterThan(0);
    const stalled = await database.query<{ status: string; pending: string }>(
      `SELECT b.status, (SELECT count(*) FROM disbursements.disbursements d WHERE d.bulk_id = b.bulk_id AND d.status = 'processing')::text AS pending FROM disbursements.bulks b WHERE b.bulk_id = $1`,
      [bulkId],
    );
    expect(stalled.rows[0]?.status).toBe('processing');
    expect(Number(stalled.rows[0]?.pending)).toBeGreaterThan(0);

    const restarted = await stack.startExtraService('disbursements', processing);
    const restartedGateway = await stack.startExtraGateway({ DISBURSEMENTS_URL: restarted.url });
    reader = () => restartedGateway.client;
    const done = await finalBulk(partner, bulkId);
    expect(done).toMatchObject({ status: 'completed', counts: { total: 400, pending: 0, completed: 400, failed: 0 } });
    const paid = await itemsOf(partner, bulkId);
    const references = paid.map((entry) => entry.referenceId as string);
    expect(new Set(references).size).toBe(400);
    const postings = await postingsPerReference(references);
    expect(references.filter((reference) => postings.get(reference) !== 1)).toEqual([]);
    const events = await outboxEventsPerReference(references);
    expect(references.filter((reference) => (events.get(reference) ?? []).join() !== 'disbursement.completed')).toEqual([]);
    const bulkEvents = await database.query<{ count: string }>(`SELECT count(*)::text AS count FROM disbursements.outbox WHERE routing_key = 'bulk.completed' AND payload->'data'->>'bulkId' = $1`, [bulkId]);
    expect(bulkEvents.rows[0]?.count).toBe('1');

    const paidCents = paid.reduce((sum, entry) => sum + centsOfApiAmount(entry.totalDebit), 0n);
    const receivedCents = paid.reduce((sum, entry) => sum + centsOfApiAmount(entry.amount), 0n);
    const after = await money(partner, users);
    expect(after.partner).toBe(before.partner - paidCents);
    expect(after.users.reduce((sum, cents) => sum + cents, 0n) - before.users.reduce((sum, cents) => sum + cents, 0n)).toBe(receivedCents);
    await Promise.all([gateway.stop(), restartedGateway.stop()]);
    await restarted.stop();
  });
});
