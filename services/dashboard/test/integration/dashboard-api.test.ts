import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { verifyWebhook } from '../../../../sdk/src/webhooks';
import { createCollection } from '../../../../test/support/collection-flow';
import type { SeededMember } from '../../../../test/support/dashboard-process';
import { disbursementQuote, transfer } from '../../../../test/support/disbursement-helpers';
import type { ConsoleHttpsClient } from '../../../../test/support/https-client';
import { accessTokenFor, onboardPartner } from '../../../../test/support/partners';
import { startDashboardStack, type DashboardStack } from '../../../../test/support/stack';
import { startWebhookReceiver } from '../../../../test/support/webhook-receiver';
import { createWalletUser, creditWallet, fundPartner, type WalletUser } from '../../../../test/support/wallet-users';

/**
 * The partner dashboard's API through its real routes on the running stack (HTTPS, Postgres,
 * Redis, the owners' partner routes): every role's allowed and refused calls, and a member of
 * partner B trying partner A's referenceIds, statement, deliveries and members.
 */
describe('the partner dashboard API: roles and partner isolation', () => {
  let stack: DashboardStack;
  let user: WalletUser;
  const partnerA = { partnerId: '', clientId: '', clientSecret: '', token: '' };
  let adminA: SeededMember;
  let developerA: SeededMember;
  let financeA: SeededMember;
  let supportA: SeededMember;
  let adminB: SeededMember;
  const sessions: Partial<Record<'admin' | 'developer' | 'finance' | 'support' | 'adminB', ConsoleHttpsClient>> = {};
  let collectionA = '';
  let disbursementA = '';

  beforeAll(async () => {
    stack = await startDashboardStack({ logLevel: 'warn' });
    user = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
    await creditWallet(stack, user, 'USD', '5000');
    const onboarded = await onboardPartner(stack);
    Object.assign(partnerA, onboarded, { token: await accessTokenFor(stack.client, onboarded) });
    await fundPartner(stack, partnerA.partnerId, 'USD', '1000.00');
    collectionA = await createCollection(stack.client, partnerA.token, { phone: user.phone, amount: 12.34, currency: 'USD', externalId: `order-${randomUUID()}` });
    const quote = await disbursementQuote(stack.client, partnerA.token, user, 25.5);
    const sent = await transfer(stack.client, partnerA.token, { quoteId: quote.quoteId, externalId: `payout-${randomUUID()}` });
    disbursementA = sent.body.data.referenceId as string;
    const partnerB = await onboardPartner(stack);
    [adminA, adminB] = await Promise.all([stack.dashboard.seedAdmin(partnerA.partnerId, 'Ada Admin'), stack.dashboard.seedAdmin(partnerB.partnerId, 'Bola Admin')]);
    developerA = await stack.dashboard.seedMember(adminA, 'developer', 'Dev Eloper');
    financeA = await stack.dashboard.seedMember(adminA, 'finance', 'Fin Ance');
    supportA = await stack.dashboard.seedMember(adminA, 'support', 'Sup Port');
    [sessions.admin, sessions.developer, sessions.finance, sessions.support, sessions.adminB] = await Promise.all([stack.dashboard.sessionOf(adminA), developerA.signIn(), financeA.signIn(), supportA.signIn(), adminB.signIn()]);
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const session = (who: keyof typeof sessions): ConsoleHttpsClient => {
    const found = sessions[who];
    if (!found) throw new Error(`no session for ${who}`);
    return found;
  };
  const statementPath = `/api/v1/statement.csv?${new URLSearchParams({ currency: 'USD', from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 3_600_000).toISOString() }).toString()}`;

  test('when each role reads and changes, then the server allows exactly what the role may and refuses the rest with CON_3004', async () => {
    const expectations: [keyof typeof sessions, string, string, number][] = [
      ['admin', 'GET', '/api/v1/overview', 200],
      ['developer', 'GET', '/api/v1/overview', 200],
      ['finance', 'GET', '/api/v1/overview', 200],
      ['support', 'GET', '/api/v1/overview', 200],
      ['support', 'GET', '/api/v1/transactions/collections', 200],
      ['support', 'GET', `/api/v1/transaction/${disbursementA}`, 200],
      ['admin', 'GET', statementPath, 200],
      ['finance', 'GET', statementPath, 200],
      ['developer', 'GET', statementPath, 403],
      ['support', 'GET', statementPath, 403],
      ['finance', 'GET', statementPath.replace('statement.csv', 'statement/balances'), 200],
      ['support', 'GET', statementPath.replace('statement.csv', 'statement/balances'), 403],
      ['admin', 'GET', '/api/v1/audit-log', 200],
      ['finance', 'GET', '/api/v1/audit-log', 403],
      ['developer', 'GET', '/api/v1/audit-log', 403],
      ['support', 'GET', '/api/v1/audit-log', 403],
      ['support', 'GET', '/api/v1/members', 200],
      ['support', 'GET', '/api/v1/credentials', 200],
      ['developer', 'POST', '/api/v1/credentials/client-secrets', 403],
      ['finance', 'POST', '/api/v1/credentials/client-secrets/revoke-previous', 403],
      ['support', 'POST', '/api/v1/bulk-payouts/quote', 403],
    ];
    for (const [who, method, path, status] of expectations) {
      const answer = await session(who).request(method, path, method === 'POST' ? { json: {} } : {});
      expect([who, method, path, answer.status]).toEqual([who, method, path, status]);
      if (status === 403) expect(answer.body).toMatchObject({ success: false, code: 'CON_3004' });
    }
    const before = await session('admin').get('/api/v1/members');
    for (const who of ['developer', 'finance', 'support'] as const) {
      const invite = await session(who).post('/api/v1/members', { email: `someone.${who}@partner.example`, displayName: 'Someone', role: 'admin' });
      expect([who, invite.status, invite.body.code]).toEqual([who, 403, 'CON_3004']);
      const promote = await session(who).request('PATCH', `/api/v1/members/${supportA.memberId}`, { json: { role: 'admin' } });
      expect([who, promote.status, promote.body.code]).toEqual([who, 403, 'CON_3004']);
      const remove = await session(who).post(`/api/v1/members/${adminA.memberId}/removal`, {});
      expect([who, remove.status, remove.body.code]).toEqual([who, 403, 'CON_3004']);
    }
    expect((await session('admin').get('/api/v1/members')).body).toEqual(before.body);
    // Every refused change is in the partner's audit log, with who and why.
    const audit = await session('admin').get('/api/v1/audit-log?action=console.change_refused&size=50');
    const refusedBy = new Set((audit.body.data.entries as { actor: { id: string }; reason: string }[]).filter((entry) => entry.reason.startsWith('role ')).map((entry) => entry.actor.id));
    expect(refusedBy).toEqual(new Set([developerA.memberId, financeA.memberId, supportA.memberId]));
  });

  test('when a member of partner B asks for partner A’s referenceIds, statement, deliveries and members, then each is refused or empty and nothing of A is revealed', async () => {
    const b = session('adminB');
    for (const referenceId of [collectionA, disbursementA]) {
      const answer = await b.get(`/api/v1/transaction/${referenceId}`);
      expect([referenceId, answer.status, answer.body.code]).toEqual([referenceId, 404, 'CON_4017']);
      expect(answer.text).not.toContain(partnerA.partnerId);
    }
    const own = await session('admin').get(`/api/v1/transaction/${collectionA}`);
    expect(own.body.data).toMatchObject({ referenceId: collectionA, amount: 12.34 });
    for (const kind of ['collections', 'disbursements', 'refunds', 'deliveries']) {
      const list = await b.get(`/api/v1/transactions/${kind}`);
      expect([kind, list.status]).toEqual([kind, 200]);
      expect(list.text).not.toContain(collectionA);
      expect(list.text).not.toContain(disbursementA);
    }
    // Naming a partner anywhere is refused, never followed.
    for (const path of [`/api/v1/transactions/collections?partnerId=${partnerA.partnerId}`, `/api/v1/overview?partnerId=${partnerA.partnerId}`, `${statementPath}&partnerId=${partnerA.partnerId}`]) {
      const answer = await b.get(path);
      expect(answer.status === 400 || (answer.status === 200 && !answer.text.includes(partnerA.partnerId) && !answer.text.includes(disbursementA))).toBe(true);
    }
    const statementB = await b.get(statementPath);
    expect(statementB.status).toBe(200);
    expect(statementB.text).not.toContain(disbursementA);
    expect(statementB.text.trim().split('\r\n')).toHaveLength(3);
    // Support finds a customer's payments by phone (as typed) and a transaction's webhooks; partner B finds none of A's.
    const byPhone = await session('support').get(`/api/v1/transactions/collections?phone=${encodeURIComponent(user.localPhone)}`);
    expect(byPhone.body.data.items.map((item: { referenceId: string }) => item.referenceId)).toContain(collectionA);
    const payoutsByPhone = await session('support').get(`/api/v1/transactions/disbursements?phone=${encodeURIComponent(user.phone)}`);
    expect(payoutsByPhone.body.data.items.map((item: { referenceId: string }) => item.referenceId)).toContain(disbursementA);
    expect(await session('support').get('/api/v1/transactions/collections?phone=12345')).toMatchObject({ status: 400, body: { code: 'PKC_2008', message: expect.stringContaining('phone') } });
    expect((await b.get(`/api/v1/transactions/collections?phone=${encodeURIComponent(user.phone)}`)).body.data.items).toEqual([]);
    const story = await session('support').get(`/api/v1/transactions/deliveries?referenceId=${disbursementA}`);
    expect(story.status).toBe(200);
    expect((story.body.data.deliveries as { referenceId: string }[]).every((delivery) => delivery.referenceId === disbursementA)).toBe(true);
    expect((await b.get(`/api/v1/transactions/deliveries?referenceId=${disbursementA}`)).body.data.deliveries).toEqual([]);
    const membersB = await b.get('/api/v1/members');
    expect((membersB.body.data.members as { memberId: string }[]).map((member) => member.memberId)).toEqual([adminB.memberId]);
    const changeA = await b.request('PATCH', `/api/v1/members/${financeA.memberId}`, { json: { role: 'support' } });
    expect([changeA.status, changeA.body.code]).toEqual([404, 'CON_4015']);
    const removeA = await b.post(`/api/v1/members/${financeA.memberId}/removal`, {});
    expect([removeA.status, removeA.body.code]).toEqual([404, 'CON_4015']);
    const auditB = await b.get('/api/v1/audit-log?size=200');
    expect(auditB.text).not.toContain(adminA.memberId);
    expect(auditB.text).not.toContain(financeA.memberId);
    // The export is the partner's own log only, admins only, and the export itself is audited.
    const exportA = await session('admin').get('/api/v1/audit-log/export?format=csv');
    expect([exportA.status, exportA.headers['content-type']]).toEqual([200, 'text/csv; charset=utf-8']);
    expect(exportA.text).toContain(financeA.memberId);
    expect(exportA.text).not.toContain(adminB.memberId);
    const exportB = await b.get('/api/v1/audit-log/export?format=ndjson');
    expect(exportB.status).toBe(200);
    expect(exportB.text).not.toContain(adminA.memberId);
    expect(exportB.text.trim().split('\n').every((line) => (JSON.parse(line) as { partnerId: string }).partnerId === adminB.partnerId)).toBe(true);
    expect(await session('finance').get('/api/v1/audit-log/export')).toMatchObject({ status: 403, body: { code: 'CON_3004' } });
    expect(await session('admin').get('/api/v1/audit-log/export?format=pdf')).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    const exported = await session('admin').get('/api/v1/audit-log?action=audit_log.export');
    expect(exported.body.data.entries[0]).toMatchObject({ action: 'audit_log.export', actor: { id: adminA.memberId }, outcome: 'done' });
  });

  test('when finance downloads a statement, then the CSV is the whole period, its amounts add up from the opening to the closing balance, and both match the API’s statement', async () => {
    const csv = await session('finance').request('GET', statementPath, { headers: { accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="statement-USD-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.text.trim().split('\r\n').map((line) => line.split(','));
    expect(lines[0]).toEqual(['postedAt', 'type', 'referenceId', 'transactionId', 'externalId', 'amount', 'balanceAfter']);
    const cents = (text: string | undefined): number => Math.round(Number(text) * 100);
    const opening = lines[1];
    const closing = lines[lines.length - 1];
    const movements = lines.slice(2, -1);
    expect([opening?.[1], closing?.[1]]).toEqual(['opening_balance', 'closing_balance']);
    expect(movements.map((line) => line[1])).toEqual(['funding', 'disbursement', 'disbursement_fee']);
    expect(cents(opening?.[5]) + movements.reduce((sum, line) => sum + cents(line[5]), 0)).toBe(cents(closing?.[5]));
    const query = new URLSearchParams(statementPath.split('?')[1]);
    const api = await stack.client.get(`/partner/v1/statement?${query.toString()}`, { bearer: partnerA.token });
    expect([cents(opening?.[5]), cents(closing?.[5])]).toEqual([Math.round(api.body.data.openingBalance * 100), Math.round(api.body.data.closingBalance * 100)]);
    // The balances the page shows before the download are the API statement's too.
    const shown = await session('finance').get(statementPath.replace('statement.csv', 'statement/balances'));
    expect(shown.status).toBe(200);
    expect([Math.round(shown.body.data.openingBalance * 100), Math.round(shown.body.data.closingBalance * 100), shown.body.data.currency]).toEqual([cents(opening?.[5]), cents(closing?.[5]), 'USD']);
    // A period the API refuses is the API's refusal, named: no file, no 5xx.
    const tooLong = await session('finance').get(`/api/v1/statement.csv?${new URLSearchParams({ currency: 'USD', from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z' }).toString()}`);
    expect([tooLong.status, tooLong.body.code]).toEqual([400, 'PKC_2008']);
  });

  test('when a bulk file is uploaded and confirmed, then only finance and admins may, each line has its result, and partner B can read neither the bulk nor its outcome', async () => {
    const lines = ['phone,amount,externalId,note', `${user.localPhone},1.25,bulk-a-1,first`, `${user.localPhone},2.50,bulk-a-2,`, `${user.localPhone},lots,bulk-a-3,bad`];
    for (const who of ['developer', 'support'] as const) {
      const refused = await session(who).post('/api/v1/bulk-payouts/quote', { currency: 'USD', lines });
      expect([who, refused.status, refused.body.code]).toEqual([who, 403, 'CON_3004']);
    }
    const preview = await session('finance').post('/api/v1/bulk-payouts/quote', { currency: 'USD', lines });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ lineCount: 3, validCount: 2, invalidCount: 1, totalAmount: 3.75 });
    expect(preview.body.data.lines.map((line: { line: number; status: string }) => [line.line, line.status])).toEqual([
      [2, 'valid'],
      [3, 'valid'],
      [4, 'invalid'],
    ]);
    for (const who of ['developer', 'support'] as const) {
      const refused = await session(who).post('/api/v1/bulk-payouts', { bulkQuoteId: preview.body.data.bulkQuoteId, externalId: `bulk-${who}` });
      expect([who, refused.status, refused.body.code]).toEqual([who, 403, 'CON_3004']);
    }
    const confirmed = await session('finance').post('/api/v1/bulk-payouts', { bulkQuoteId: preview.body.data.bulkQuoteId, externalId: 'bulk-a' });
    expect([200, 202]).toContain(confirmed.status);
    const bulkId = confirmed.body.data.bulkId as string;
    // Twice at once with the same preview: one bulk, as the API's bulk transfer answers a replay.
    const again = await session('admin').post('/api/v1/bulk-payouts', { bulkQuoteId: preview.body.data.bulkQuoteId, externalId: 'bulk-a' });
    expect(again.body.data?.bulkId ?? again.body.code).toBe(bulkId);
    // The owner records who confirmed it: the dashboard named the finance member as the actor (x-partner-actor; the admin's replay changes nothing).
    const database = new Client({ connectionString: stack.databaseUrl });
    await database.connect();
    try {
      const { rows } = await database.query<{ requested_by: string | null }>('SELECT requested_by FROM disbursements.bulks WHERE bulk_id = $1', [bulkId]);
      expect(rows).toEqual([{ requested_by: `member:${financeA.memberId}` }]);
    } finally {
      await database.end();
    }
    const read = await session('support').get(`/api/v1/bulk-payouts/${bulkId}`);
    expect(read.body.data).toMatchObject({ bulkId, counts: { total: 2 } });
    // The partner's bulks, newest first (the API's bulks list): every role reads them; partner B lists none of A's.
    const listed = await session('support').get('/api/v1/bulk-payouts?limit=1');
    expect(listed.body.data).toMatchObject({ items: [expect.objectContaining({ bulkId, externalId: 'bulk-a', currency: 'USD', counts: expect.objectContaining({ total: 2 }) })], hasMore: false, nextCursor: null });
    expect(await session('support').get('/api/v1/bulk-payouts?status=paid')).toMatchObject({ status: 400, body: { code: 'PKC_2008', message: expect.stringContaining('status') } });
    expect(await session('support').get(`/api/v1/bulk-payouts?partnerId=${partnerA.partnerId}`)).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    const listedB = await session('adminB').get('/api/v1/bulk-payouts');
    expect([listedB.status, listedB.body.data.items]).toEqual([200, []]);
    for (const path of [`/api/v1/bulk-payouts/${bulkId}`, `/api/v1/bulk-payouts/${bulkId}/outcome.csv`]) {
      const answer = await session('adminB').get(path);
      expect([path, answer.status, answer.body?.code]).toEqual([path, 404, 'CON_4017']);
      expect(answer.text).not.toContain('bulk-a');
    }
    const audit = await session('admin').get('/api/v1/audit-log?action=bulk.');
    expect(audit.body.data.entries.map((entry: { action: string; actor: { id: string } }) => [entry.action, entry.actor.id])).toEqual(expect.arrayContaining([['bulk.upload', financeA.memberId], ['bulk.confirm', financeA.memberId]]));
  });

  /** Waits (at most 10 s) until the read gives what is wanted; answers the last read. */
  async function eventually<T>(read: () => Promise<T>, wanted: (value: T) => boolean): Promise<T> {
    let value = await read();
    for (let check = 0; check < 50 && !wanted(value); check += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      value = await read();
    }
    return value;
  }

  test('when members read the events and a transaction’s story, then every role may, the API’s filters and keyset pages apply, partner B sees none of A’s, and the story tells the quote, each status change with its time, the refunds, the reversal and the webhooks', async () => {
    // (after the statement test: this test's payments are not in its period's expected movements)
    const collection = await createCollection(stack.client, partnerA.token, { phone: user.phone, amount: 7.5, currency: 'USD', externalId: `story-${randomUUID()}` });
    expect((await session('developer').post(`/api/v1/sandbox/collections/${collection}/approve`, {})).body.data?.status).toBe('completed');
    const refund = await stack.client.post(`/partner/v1/collection/${collection}/refund`, { externalId: `story-refund-${randomUUID()}`, amount: 2.5 }, { bearer: partnerA.token });
    expect([200, 202]).toContain(refund.status);
    const quote = await disbursementQuote(stack.client, partnerA.token, user, 3.25);
    const payout = (await transfer(stack.client, partnerA.token, { quoteId: quote.quoteId, externalId: `story-payout-${randomUUID()}` })).body.data.referenceId as string;
    await stack.walletOperator(['reverse-disbursement', '--reference-id', payout, '--reason', 'paid to the wrong number']);

    // The events: the webhook service records the collection's completion from the bus a moment later.
    type EventRow = { eventId: string; type: string; payload: { referenceId?: string } };
    const completions = await eventually(
      async () => (await session('support').get('/api/v1/events?type=collection.completed&limit=100')).body.data.items as EventRow[],
      (items) => items.some((event) => event.payload.referenceId === collection),
    );
    expect(completions.every((event) => event.type === 'collection.completed')).toBe(true);
    expect(completions.map((event) => event.payload.referenceId)).toContain(collection);
    for (const who of ['admin', 'developer', 'finance', 'support'] as const) {
      const read = await session(who).get('/api/v1/events?type=collection.completed&limit=100');
      expect([who, read.status, read.text.includes(collection)]).toEqual([who, 200, true]);
    }
    const first = await session('finance').get('/api/v1/events?limit=1');
    expect(first.body.data).toMatchObject({ items: [expect.objectContaining({ eventId: expect.any(String), deliveryStatus: expect.any(String) })], hasMore: true, nextCursor: expect.any(String) });
    const second = await session('finance').get(`/api/v1/events?limit=1&cursor=${encodeURIComponent(first.body.data.nextCursor as string)}`);
    expect(second.body.data.items[0].eventId).not.toBe(first.body.data.items[0].eventId);
    const since = await session('finance').get(`/api/v1/events?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(since.body.data).toMatchObject({ items: [], hasMore: false });
    expect(await session('support').get('/api/v1/events?type=collection.approved')).toMatchObject({ status: 400, body: { code: 'PKC_2008', message: expect.stringContaining('type') } });
    expect(await session('support').get(`/api/v1/events?partnerId=${partnerA.partnerId}`)).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    const eventsB = await session('adminB').get('/api/v1/events?limit=100');
    expect(eventsB.status).toBe(200);
    expect(eventsB.text).not.toContain(collection);
    expect(eventsB.text).not.toContain(disbursementA);

    // The collection's story: its money, when it was requested, completed and refunded, and the webhook sent about it.
    const collectionStory = (await session('support').get(`/api/v1/transaction/${collection}/story`)).body.data;
    expect(collectionStory.transaction).toMatchObject({ referenceId: collection, status: 'completed', amount: 7.5, currency: 'USD', fee: expect.any(Number), totalDebit: expect.any(Number) });
    const refunded = (collectionStory.refunds as { referenceId: string; status: string }[])[0];
    expect(refunded?.referenceId).toBe(refund.body.data.referenceId);
    expect(collectionStory.statusChanges).toEqual([
      { status: 'pending_approval', at: collectionStory.transaction.createdAt, source: 'record' },
      { status: 'completed', at: collectionStory.transaction.transactionId.completedAt, source: 'record' },
      { status: 'refund_requested', at: expect.any(String), source: 'record', referenceId: refunded?.referenceId },
      ...(refunded?.status === 'completed' ? [{ status: 'refunded', at: expect.any(String), source: 'record', referenceId: refunded.referenceId }] : []),
    ]);
    expect(collectionStory.deliveries).toEqual([expect.objectContaining({ event: 'collection.completed', referenceId: collection, status: 'skipped' })]);

    // The reversed payout's story: its quote (amount, fee, total debit), created, completed, reversed (the reversal's own fields).
    const payoutStory = await eventually(
      async () => (await session('developer').get(`/api/v1/transaction/${payout}/story`)).body.data,
      (story) => story.transaction.reversal !== undefined,
    );
    expect(payoutStory.transaction).toMatchObject({ referenceId: payout, status: 'completed', amount: 3.25, fee: quote.fee, totalDebit: quote.totalDebit, reversal: { amount: 3.25, currency: 'USD', transactionId: expect.stringMatching(/^TXN-/) } });
    expect(payoutStory.statusChanges).toEqual([
      { status: 'pending', at: payoutStory.transaction.createdAt, source: 'record' },
      { status: 'completed', at: payoutStory.transaction.completedAt, source: 'record' },
      { status: 'reversed', at: payoutStory.transaction.reversal.reversedAt, source: 'record' },
    ]);
    expect(payoutStory.refunds).toBeNull();
    expect(await session('adminB').get(`/api/v1/transaction/${payout}/story`)).toMatchObject({ status: 404, body: { code: 'CON_4017' } });
  });

  test('when requests come without a session, without the CSRF token or from another site, then they are refused and change nothing', async () => {
    const anonymous = stack.dashboard.client();
    expect((await anonymous.get('/api/v1/overview')).status).toBe(401);
    const admin = session('admin');
    const csrf = admin.csrfToken;
    admin.csrfToken = undefined;
    const noToken = await admin.post('/api/v1/members', { email: 'csrf.less@partner.example', displayName: 'No Token', role: 'support' });
    admin.csrfToken = csrf;
    expect([noToken.status, noToken.body.code]).toEqual([403, 'CON_1005']);
    const crossSite = await admin.request('POST', '/api/v1/members', { json: { email: 'cross.site@partner.example', displayName: 'Cross Site', role: 'support' }, headers: { origin: 'https://evil.example' } });
    expect([crossSite.status, crossSite.body.code]).toEqual([403, 'CON_1005']);
    const bearer = await anonymous.request('GET', '/api/v1/overview', { headers: { authorization: `Bearer ${partnerA.token}` } });
    expect([bearer.status, bearer.body.code]).toEqual([401, 'CON_1004']);
    const members = await admin.get('/api/v1/members');
    expect(JSON.stringify(members.body)).not.toMatch(/csrf\.less|cross\.site/);
  });

  test('when sign-ins are refused until the typed address locks, then dashboard_sign_in_refusals on the internal port counts each by reason, and the audit chain walk reports the log sound', async () => {
    const metricsPage = async (): Promise<string> => {
      const answer = await fetch(`${stack.dashboard.internalUrl}/metrics`);
      expect(answer.status).toBe(200);
      return answer.text();
    };
    const refusals = async (): Promise<Record<string, number>> =>
      Object.fromEntries([...(await metricsPage()).matchAll(/^dashboard_sign_in_refusals\{reason="([a-z_]+)",service="dashboard"\} (\d+)$/gm)].map((match) => [match[1]!, Number(match[2])]));
    const before = await refusals();
    const anonymous = stack.dashboard.client();
    const unknownAddress = `nobody.${randomUUID().slice(0, 8)}@partner.example`;
    // Five failures lock the typed address (whether or not a member has it); the sixth is refused by the lock.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(await anonymous.post('/api/v1/session', { email: unknownAddress, password: 'a guessed password' })).toMatchObject({ status: 401, body: { code: 'CON_1001' } });
    }
    expect(await anonymous.post('/api/v1/session', { email: unknownAddress, password: 'a guessed password' })).toMatchObject({ status: 429, body: { code: 'CON_1002' } });
    expect(await anonymous.post('/api/v1/session', { email: financeA.email, password: 'not her password' })).toMatchObject({ status: 401, body: { code: 'CON_1001' } });

    const after = await refusals();
    const added = (reason: string) => (after[reason] ?? 0) - (before[reason] ?? 0);
    expect({ locked: added('account_locked'), unknown: added('no_active_member_with_this_address'), wrongPassword: added('wrong_password'), throttled: added('address_throttled') }).toEqual({
      locked: 1,
      unknown: 5,
      wrongPassword: 1,
      throttled: 0,
    });
    const page = await metricsPage();
    expect(page).toMatch(/^dashboard_audit_chain_intact\{chain="audit_log",service="dashboard"\} 1$/m);
    expect(page).toMatch(/^dashboard_audit_chain_verified_timestamp_seconds\{service="dashboard"\} [1-9]/m);
  });

  test('when an admin changes the team, then a wrong fresh code is refused, the last admin stays, and a changed member’s session ends at once', async () => {
    const admin = session('admin');
    const wrongCode = await admin.request('PATCH', `/api/v1/members/${supportA.memberId}`, { json: { role: 'finance', code: '000000' } });
    expect([wrongCode.status, wrongCode.body.code]).toEqual([401, 'CON_1012']);
    const lastAdmin = await admin.request('PATCH', `/api/v1/members/${adminA.memberId}`, { json: { role: 'support' } });
    expect([lastAdmin.status, lastAdmin.body.code]).toEqual([409, 'CON_4016']);
    const badRole = await admin.request('PATCH', `/api/v1/members/${supportA.memberId}`, { json: { role: 'owner' } });
    expect([badRole.status, badRole.body.code]).toEqual([400, 'CON_2001']);
    expect(badRole.body.message).toContain('role');
    const support = session('support');
    expect((await support.get('/api/v1/overview')).status).toBe(200);
    const promoted = await admin.request('PATCH', `/api/v1/members/${supportA.memberId}`, { json: { role: 'finance' } });
    expect([promoted.status, promoted.body.data.member.role]).toEqual([200, 'finance']);
    expect((await support.get('/api/v1/overview')).status).toBe(401);
    const audit = await admin.get('/api/v1/audit-log?action=member.role.change');
    expect(audit.body.data.entries[0]).toMatchObject({ actor: { id: adminA.memberId }, target: { kind: 'member', id: supportA.memberId }, before: { role: 'support' }, after: { role: 'finance' }, outcome: 'done' });
    const again = await supportA.signIn();
    sessions.support = again;
    expect((await again.get('/api/v1/session')).body.data.member).toMatchObject({ role: 'finance', allowedActions: expect.arrayContaining(['download_statement']) });
  });

  test('when an invitation is accepted twice at once, then exactly one acceptance activates the member and the link is spent', async () => {
    const admin = session('admin');
    const invited = await admin.post('/api/v1/members', { email: `twice.${randomUUID().slice(0, 8)}@partner.example`, displayName: 'Twice Accepted', role: 'support' });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.data.invitationLink as string).hash.replace(/^#token=/, '');
    const first = stack.dashboard.client();
    const begun = await first.post('/api/v1/invitation/begin', { token });
    expect(begun.status).toBe(200);
    const { totpCodeOfStep, currentTotpStep } = await import('../../../../test/support/totp-person');
    const body = { token, password: 'a long passphrase for twice', enrolment: begun.body.data.enrolment, code: totpCodeOfStep(begun.body.data.secretBase32 as string, currentTotpStep()) };
    const answers = await Promise.all([first.post('/api/v1/invitation/complete', body), stack.dashboard.client().post('/api/v1/invitation/complete', body)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 410]);
    const reused = await stack.dashboard.client().post('/api/v1/invitation/begin', { token });
    expect([reused.status, reused.body.code]).toEqual([410, 'CON_1006']);
  });

  test('when the input is wrong anywhere, then the answer is a 4xx naming what to fix, never a 5xx', async () => {
    const admin = session('admin');
    const cases: [string, string, unknown][] = [
      ['GET', '/api/v1/transactions/payouts', undefined],
      ['GET', '/api/v1/transactions/collections?limit=abc', undefined],
      ['GET', '/api/v1/transactions/collections?status=nonsense', undefined],
      ['GET', '/api/v1/transactions/collections?createdFrom=yesterday', undefined],
      ['GET', '/api/v1/transaction/not-a-reference', undefined],
      ['GET', '/api/v1/transaction/PKC-%00', undefined],
      ['GET', '/api/v1/transaction/not-a-reference/story', undefined],
      ['GET', '/api/v1/events?since=yesterday', undefined],
      ['GET', '/api/v1/events?cursor=abc', undefined],
      ['GET', '/api/v1/statement.csv', undefined],
      ['GET', '/api/v1/statement.csv?currency=EUR&from=x&to=y', undefined],
      ['GET', '/api/v1/statement/balances', undefined],
      ['GET', '/api/v1/statement/balances?currency=EUR&from=x&to=y', undefined],
      ['GET', '/api/v1/audit-log?cursor=abc', undefined],
      ['POST', '/api/v1/members', { email: 'not an address', displayName: 'X', role: 'support' }],
      ['POST', '/api/v1/members', { email: ['a@b.c'], displayName: 7, role: 'support' }],
      ['PATCH', '/api/v1/members/not-a-uuid', { role: 'support' }],
      ['POST', `/api/v1/members/${randomUUID()}/removal`, {}],
      ['POST', '/api/v1/members/not-a-uuid/removal', { code: 'abc' }],
    ];
    for (const [method, path, json] of cases) {
      const answer = await admin.request(method, path, json === undefined ? {} : { json });
      expect([method, path, answer.status >= 400 && answer.status < 500]).toEqual([method, path, true]);
      expect(typeof answer.body?.code).toBe('string');
      expect(typeof answer.body?.message).toBe('string');
    }
  });

  test('when a developer approves a pending collection in the sandbox or redelivers, then it acts on their own partner only; support and partner B are refused', async () => {
    // supportA was promoted to finance above (and signed in again): finance may not simulate either.
    const support = session('support');
    expect(await support.post(`/api/v1/sandbox/collections/${collectionA}/approve`, {})).toMatchObject({ status: 403, body: { code: 'CON_3004' } });
    expect(await session('adminB').post(`/api/v1/sandbox/collections/${collectionA}/approve`, {})).toMatchObject({ status: 404, body: { code: 'CON_4017' } });
    expect(await session('developer').post(`/api/v1/sandbox/collections/${collectionA}/accept`, {})).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    const approved = await session('developer').post(`/api/v1/sandbox/collections/${collectionA}/approve`, {});
    expect([approved.status, approved.body.data?.status]).toEqual([200, 'completed']);
    const audit = await session('admin').get('/api/v1/audit-log?action=sandbox.collection.');
    expect(audit.body.data.entries[0]).toMatchObject({ action: 'sandbox.collection.approve', actor: { id: developerA.memberId }, target: { id: collectionA }, outcome: 'done' });
    expect(await session('developer').post(`/api/v1/deliveries/${randomUUID()}/redelivery`, {})).toMatchObject({ status: 404, body: { code: 'CON_4017' } });
    expect(await support.post(`/api/v1/deliveries/${randomUUID()}/redelivery`, {})).toMatchObject({ status: 403, body: { code: 'CON_3004' } });
    // Partner B's admin names one of A's real deliveries: as unknown to B as a made-up id, nothing of it revealed.
    const deliveryOfA = (await firstDeliveryOf(disbursementA))?.deliveryId;
    expect(deliveryOfA).toEqual(expect.any(String));
    const byB = await session('adminB').post(`/api/v1/deliveries/${deliveryOfA ?? ''}/redelivery`, {});
    expect(byB).toMatchObject({ status: 404, body: { code: 'CON_4017' } });
    expect(JSON.stringify(byB.body)).not.toContain(disbursementA);
  });

  test('when the partner is suspended, then its team still reads, but every change the API would refuse is refused with the API’s code', async () => {
    await stack.operator(['set-status', partnerA.clientId, 'suspended']);
    // The dashboard reads the partner's status at auth on each call (no cache to wait for).
    const lines = ['phone,amount,externalId', `${user.localPhone},1.00,suspended-1`];
    expect(await session('admin').post('/api/v1/bulk-payouts/quote', { currency: 'USD', lines })).toMatchObject({ status: 403, body: { code: 'PKC_1006' } });
    expect(await session('developer').post(`/api/v1/deliveries/${randomUUID()}/redelivery`, {})).toMatchObject({ status: 403, body: { code: 'PKC_1006' } });
    expect((await session('admin').get('/api/v1/overview')).status).toBe(200);
    expect((await session('admin').get(statementPath)).status).toBe(200);
    await stack.operator(['set-status', partnerA.clientId, 'active']);
  });

  interface ListedDelivery {
    deliveryId: string;
    attempts: { outcome: string }[];
  }

  /** Waits (at most 3 s) until the transaction's first listed delivery is `ready`: that delivery, or undefined. */
  async function firstDeliveryOf(referenceId: string, ready: (delivery: ListedDelivery) => boolean = () => true): Promise<ListedDelivery | undefined> {
    for (let check = 0; check < 15; check += 1) {
      const page = await session('developer').get(`/api/v1/transactions/deliveries?referenceId=${referenceId}`);
      const delivery = (page.body.data.deliveries as ListedDelivery[])[0];
      if (delivery !== undefined && ready(delivery)) return delivery;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return undefined;
  }

  /** Waits (at most 3 s) for the test delivery's first attempt; true when it reached the receiver. */
  async function firstAttemptSucceeded(referenceId: string): Promise<boolean> {
    const delivery = await firstDeliveryOf(referenceId, (listed) => listed.attempts[0] !== undefined);
    return delivery?.attempts[0]?.outcome === 'succeeded';
  }

  test('when an admin changes the webhook URL and rotates its secret, then only admins may, bad URLs are refused naming them, the secret is shown once, and auth records the member for the back-office', async () => {
    const url = '/api/v1/webhook-settings/url';
    const rotation = '/api/v1/webhook-settings/secret-rotations';
    // (support's session ended when the member was promoted above: developer and finance stand for the other roles here.)
    for (const who of ['developer', 'finance'] as const) {
      expect(await session(who).post(url, { webhookUrl: 'https://partner-a.example/hooks' })).toMatchObject({ status: 403, body: { code: 'CON_3004' } });
      expect(await session(who).post(rotation, {})).toMatchObject({ status: 403, body: { code: 'CON_3004' } });
    }
    expect(await session('admin').post(url, { webhookUrl: 'ftp://partner-a.example/hooks' })).toMatchObject({ status: 400, body: { code: 'PKC_2008', message: expect.stringContaining('webhookUrl') } });
    expect(await session('admin').post(url, { webhookUrl: 'https://user:secret@partner-a.example/hooks' })).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    expect(await session('admin').post(rotation, { overlapHours: 721 })).toMatchObject({ status: 400, body: { code: 'CON_2001', message: expect.stringContaining('overlapHours') } });
    expect((await session('admin').get('/api/v1/webhook-settings')).body.data).toMatchObject({ webhookUrl: null });

    const set = await session('admin').post(url, { webhookUrl: 'https://partner-a.example/hooks' });
    expect(set).toMatchObject({ status: 200, body: { data: { after: { webhookUrl: 'https://partner-a.example/hooks' } } } });
    expect((await session('developer').get('/api/v1/webhook-settings')).body.data.webhookUrl).toBe('https://partner-a.example/hooks');
    expect((await session('adminB').get('/api/v1/webhook-settings')).body.data.webhookUrl).toBeNull();

    const key = randomUUID();
    const rotated = await session('admin').request('POST', rotation, { json: { overlapHours: 2 }, headers: { 'idempotency-key': key } });
    expect(rotated.status).toBe(200);
    const secret = rotated.body.data.webhookSecret as string;
    expect(secret.length).toBeGreaterThan(20);
    expect(Date.parse(rotated.body.data.previousSecretsValidUntil as string) - Date.now()).toBeGreaterThan(7_000_000);
    const again = await session('admin').request('POST', rotation, { json: { overlapHours: 2 }, headers: { 'idempotency-key': key } });
    expect(again.body.data).toMatchObject({ replayed: true, webhookSecret: null });
    expect((await session('admin').get('/api/v1/webhook-settings')).body.data.lastSecretRotation).toMatchObject({ rotatedAt: rotated.body.data.rotatedAt });

    // The partner's audit log and auth's record (what the back-office shows) name the member; no secret in either.
    const audit = await session('admin').get('/api/v1/audit-log?action=webhook.&size=20');
    expect((audit.body.data.entries as { action: string; actor: { id: string } }[]).map((entry) => [entry.action, entry.actor.id])).toEqual(
      expect.arrayContaining([
        ['webhook.url.set', adminA.memberId],
        ['webhook.secret.rotate', adminA.memberId],
      ]),
    );
    expect(audit.text).not.toContain(secret);
    const detail = await fetch(`${stack.internalUrls.auth}/internal/admin/partners/${partnerA.partnerId}`).then(async (answer) => (await answer.json()) as { operatorActions: { action: string; operatorId: string; actorKind: string }[] });
    expect(detail.operatorActions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'partner.webhook_url.set', operatorId: adminA.memberId, actorKind: 'member' }),
        expect.objectContaining({ action: 'partner.webhook_secret.rotate', operatorId: adminA.memberId, actorKind: 'member' }),
      ]),
    );
    expect(JSON.stringify(detail)).not.toContain(secret);

    // A developer asks for a test webhook: it reaches the receiver signed with the new secret; finance may not ask.
    expect(await session('finance').post('/api/v1/webhook-settings/test', {})).toMatchObject({ status: 403, body: { code: 'CON_3004' } });
    const endpoint = await startWebhookReceiver();
    try {
      await session('admin').post(url, { webhookUrl: endpoint.url });
      // The webhook service learns the new URL by auth's partner event: a test sent before that goes to the old URL; ask again until one lands.
      // Until it has learnt any URL (the first change's event may still be on its way) the test is refused (409): wait a moment and ask again.
      let test = await session('developer').post('/api/v1/webhook-settings/test', {});
      for (let tries = 0; tries < 20 && !(test.status === 202 && (await firstAttemptSucceeded(test.body.data.referenceId as string))); tries += 1) {
        if (test.status !== 202) await new Promise((resolve) => setTimeout(resolve, 200));
        test = await session('developer').post('/api/v1/webhook-settings/test', {});
      }
      expect(test).toMatchObject({ status: 202, body: { data: { event: 'webhook.test', status: 'pending' } } });
      const request = endpoint.received.find((received) => received.body.includes(test.body.data.referenceId as string));
      expect(verifyWebhook(request?.body ?? '', request?.headers ?? {}, secret)).toMatchObject({ event: 'webhook.test', referenceId: test.body.data.referenceId });
      const sent = await session('admin').get('/api/v1/audit-log?action=webhook.test.send');
      expect(sent.body.data.entries[0]).toMatchObject({ actor: { id: developerA.memberId }, target: { id: test.body.data.referenceId }, outcome: 'done' });
    } finally {
      await session('admin').post(url, { webhookUrl: null });
      await endpoint.close();
    }
    // The webhook service learns of the removed URL by auth's partner event, a moment later: then a test is refused.
    let refused = await session('developer').post('/api/v1/webhook-settings/test', {});
    for (let tries = 0; refused.status !== 409 && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      refused = await session('developer').post('/api/v1/webhook-settings/test', {});
    }
    expect(refused).toMatchObject({ status: 409, body: { code: 'PKC_6004' } });
  });

  test('when a partner’s team makes more requests in a minute than the partner’s rate limit, then the next is 429 PKC_7001 with Retry-After, a refused change is audited, and another partner is not slowed', async () => {
    const partnerC = await onboardPartner(stack);
    await stack.operator(['set-rate-limit', partnerC.clientId, '4']);
    const adminC = await stack.dashboard.seedAdmin(partnerC.partnerId, 'Cleo Admin');
    const c = await adminC.signIn();
    for (let call = 1; call <= 4; call += 1) {
      const answer = await c.get('/api/v1/members');
      expect([call, answer.status, answer.headers['ratelimit-limit'], answer.headers['ratelimit-remaining']]).toEqual([call, 200, '4', String(4 - call)]);
    }
    const refused = await c.get('/api/v1/overview');
    expect(refused).toMatchObject({ status: 429, body: { success: false, code: 'PKC_7001', message: expect.stringContaining('4 requests') } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const refusedChange = await c.post('/api/v1/members', { email: 'late@partner-c.example', displayName: 'Late', role: 'support' });
    expect(refusedChange).toMatchObject({ status: 429, body: { code: 'PKC_7001' } });
    // The audit log is read with the next minute's budget: its entries are in the database already.
    const database = new Client({ connectionString: stack.databaseUrl });
    await database.connect();
    try {
      const { rows } = await database.query<{ reason: string }>("SELECT reason FROM dashboard.audit_log WHERE partner_id = $1 AND action = 'console.change_refused'", [partnerC.partnerId]);
      expect(rows.map((row) => row.reason)).toEqual([expect.stringContaining('rate limit (4 requests a minute)')]);
    } finally {
      await database.end();
    }
    expect((await session('admin').get('/api/v1/overview')).status).toBe(200);
  });
});
