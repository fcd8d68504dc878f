import { randomUUID } from 'node:crypto';
import { createTestPartner, createTestUser, expectLedgerInvariantsHold, getJson, postJson, startWalletHarness, transferBody, type WalletHarness } from './wallet-harness';
import { fundPartner } from '../../src/use-cases/operator-postings';

let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness();
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

const hourMs = 60 * 60 * 1000;

function statementUrl(query: Record<string, string>): string {
  return `${harness.baseUrl}/partner/v1/statement?${new URLSearchParams(query).toString()}`;
}

/** A period around now: from an hour ago to an hour ahead (so the closing balance is the balance now). */
function periodAroundNow(): { from: string; to: string } {
  return { from: new Date(Date.now() - hourMs).toISOString(), to: new Date(Date.now() + hourMs).toISOString() };
}

async function post(body: ReturnType<typeof transferBody> & { referenceId?: string; externalId?: string }): Promise<void> {
  const answer = await postJson(`${harness.baseUrl}/internal/transfers`, body);
  expect(answer.status).toBe(200);
}

/** A partner funded with 100.00 USD, then a disbursement of 10.50 with a fee of 0.35 and a collection of 2.00 (the user bears its fee). */
async function partnerWithThreeTransfers(): Promise<{ partnerId: string }> {
  const partnerId = await createTestPartner(harness, { USD: 10_000n });
  const user = await createTestUser(harness, { balances: { USD: 5_000n } });
  await post({ ...transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '1050', feeMinor: '35' }), referenceId: 'PKD-1-AAAAAAAA', externalId: 'payout-1' });
  await post({ ...transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '200', feeMinor: '5' }), referenceId: 'PKC-1-BBBBBBBB', externalId: 'order,"1"' });
  return { partnerId };
}

async function allPages(partnerId: string, query: Record<string, string>): Promise<any[]> {
  const pages: any[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page += 1) {
    const answer = await getJson(statementUrl({ ...query, ...(cursor ? { cursor } : {}) }), { 'x-partner-id': partnerId });
    expect(answer.status).toBe(200);
    pages.push(answer.body.data);
    cursor = answer.body.data.nextCursor ?? undefined;
    if (!cursor) return pages;
  }
  throw new Error('more than 50 pages');
}

describe('GET /partner/v1/statement', () => {
  it('when a partner was funded, disbursed with a fee and collected, then the statement lists the funding, the disbursement, its fee and the collection with the balance after each', async () => {
    const { partnerId } = await partnerWithThreeTransfers();
    const answer = await getJson(statementUrl({ currency: 'USD', ...periodAroundNow() }), { 'x-partner-id': partnerId });
    expect(answer.status).toBe(200);
    const page = answer.body.data;
    expect(page).toMatchObject({ currency: 'USD', openingBalance: 0, closingBalance: 91.15, nextCursor: null, hasMore: false });
    expect(page.items.map((item: any) => [item.type, item.amount, item.balanceAfter, item.referenceId, item.externalId])).toEqual([
      ['funding', 100, 100, expect.stringMatching(/^TXN-/), null],
      ['disbursement', -10.5, 89.5, 'PKD-1-AAAAAAAA', 'payout-1'],
      ['disbursement_fee', -0.35, 89.15, 'PKD-1-AAAAAAAA', 'payout-1'],
      ['collection', 2, 91.15, 'PKC-1-BBBBBBBB', 'order,"1"'],
    ]);
    expect((await getJson(`${harness.baseUrl}/partner/v1/balance`, { 'x-partner-id': partnerId })).body.data.USD).toBe(91.15);
  });

  it('when the period starts after some movements, then the opening balance is the balance just before it and only later movements are listed', async () => {
    const { partnerId } = await partnerWithThreeTransfers();
    const from = new Date().toISOString();
    await fundPartner(harness.pool, { partnerId, currency: 'USD', amountMinor: 1_000n, reference: 'second funding' });
    const page = (await getJson(statementUrl({ currency: 'USD', from, to: new Date(Date.now() + hourMs).toISOString() }), { 'x-partner-id': partnerId })).body.data;
    expect(page).toMatchObject({ openingBalance: 91.15, closingBalance: 101.15 });
    expect(page.items.map((item: any) => [item.type, item.amount, item.balanceAfter])).toEqual([['funding', 10, 101.15]]);
  });

  it('when the statement is read a movement at a time, then the pages hold the same movements in the same order, with the same opening and closing balance on each', async () => {
    const { partnerId } = await partnerWithThreeTransfers();
    const period = { currency: 'USD', ...periodAroundNow() };
    const whole = (await getJson(statementUrl(period), { 'x-partner-id': partnerId })).body.data;
    for (const limit of ['1', '2', '3']) {
      const pages = await allPages(partnerId, { ...period, limit });
      expect(pages.flatMap((page) => page.items)).toEqual(whole.items);
      // to was in the future: the first page fixed the period's end at its own time, and every page keeps it.
      for (const page of pages) expect([page.openingBalance, page.closingBalance, page.to]).toEqual([whole.openingBalance, whole.closingBalance, pages[0].to]);
      expect(pages.length).toBe(Math.ceil(whole.items.length / Number(limit)));
    }
  });

  it('when the CSV is asked for by Accept or by format=csv, then it holds the JSON page’s rows as RFC 4180 lines and the balances in headers', async () => {
    const { partnerId } = await partnerWithThreeTransfers();
    const period = { currency: 'USD', ...periodAroundNow() };
    const json = (await getJson(statementUrl(period), { 'x-partner-id': partnerId })).body.data;
    const byAccept = await fetch(statementUrl(period), { headers: { 'x-partner-id': partnerId, accept: 'text/csv' } });
    const byFormat = await fetch(statementUrl({ ...period, format: 'csv' }), { headers: { 'x-partner-id': partnerId } });
    for (const response of [byAccept, byFormat]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
      expect([response.headers.get('x-opening-balance'), response.headers.get('x-closing-balance'), response.headers.get('x-next-cursor')]).toEqual(['0', '91.15', null]);
      const lines = (await response.text()).split('\r\n');
      expect(lines[0]).toBe('postedAt,type,referenceId,transactionId,externalId,amount,balanceAfter');
      expect(lines.length).toBe(json.items.length + 2);
      expect(lines[lines.length - 1]).toBe('');
      expect(lines[4]).toBe(`${json.items[3].postedAt},collection,PKC-1-BBBBBBBB,${json.items[3].transactionId},"order,""1""",2,91.15`);
      expect(lines[1]).toBe(`${json.items[0].postedAt},funding,${json.items[0].referenceId},${json.items[0].transactionId},,100,100`);
    }
  });

  it('when an externalId would run as a spreadsheet formula, then its CSV field starts with an apostrophe, the JSON keeps it as written, and negative amounts stay numbers', async () => {
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const user = await createTestUser(harness, { balances: { USD: 5_000n } });
    const formulas = ['=HYPERLINK("http://evil.example","x")', '+cmd', '@SUM(1+1)', '-2+3'];
    for (const [index, externalId] of formulas.entries()) {
      await post({ ...transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '100', feeMinor: '0' }), referenceId: `PKD-2-FORMULA${index}`, externalId });
    }
    const period = { currency: 'USD', ...periodAroundNow() };
    const json = (await getJson(statementUrl(period), { 'x-partner-id': partnerId })).body.data;
    expect(json.items.slice(1).map((item: any) => item.externalId)).toEqual(formulas);
    const lines = (await (await fetch(statementUrl({ ...period, format: 'csv' }), { headers: { 'x-partner-id': partnerId } })).text()).split('\r\n');
    expect(lines.slice(2, 6).map((line) => line.split(',').slice(4).join(','))).toEqual([`"'=HYPERLINK(""http://evil.example"",""x"")",-1,99`, `'+cmd,-1,98`, `'@SUM(1+1),-1,97`, `'-2+3,-1,96`]);
  });

  it('when the partner has no account in the currency, then the statement is empty at zero', async () => {
    const answer = await getJson(statementUrl({ currency: 'LRD', ...periodAroundNow() }), { 'x-partner-id': randomUUID() });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ openingBalance: 0, closingBalance: 0, items: [], nextCursor: null, hasMore: false });
  });

  const now = Date.now();
  const iso = (offsetMs: number): string => new Date(now + offsetMs).toISOString();
  it.each([
    ['currency missing', { from: iso(-hourMs), to: iso(0) }, 'currency'],
    ['currency EUR', { currency: 'EUR', from: iso(-hourMs), to: iso(0) }, 'currency'],
    ['from missing', { currency: 'USD', to: iso(0) }, 'from'],
    ['from not ISO 8601', { currency: 'USD', from: '10/06/2024', to: iso(0) }, 'from'],
    ['to before from', { currency: 'USD', from: iso(0), to: iso(-hourMs) }, 'to'],
    ['to equal to from', { currency: 'USD', from: iso(0), to: iso(0) }, 'to'],
    ['32 days', { currency: 'USD', from: iso(-32 * 24 * hourMs), to: iso(0) }, 'to'],
    ['limit 0', { currency: 'USD', from: iso(-hourMs), to: iso(0), limit: '0' }, 'limit'],
    ['limit 101', { currency: 'USD', from: iso(-hourMs), to: iso(0), limit: '101' }, 'limit'],
    ['a forged cursor', { currency: 'USD', from: iso(-hourMs), to: iso(0), cursor: 'bm90LWEtY3Vyc29y' }, 'cursor'],
    ['an unknown parameter', { currency: 'USD', from: iso(-hourMs), to: iso(0), sort: 'desc' }, 'sort'],
  ])('when %s, then 400 PKC_2008 naming the parameter', async (_case, query, name) => {
    const answer = await getJson(statementUrl(query), { 'x-partner-id': randomUUID() });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('PKC_2008');
    expect(answer.body.message).toContain(name);
  });

  it('when a cursor is used by another partner or with another period, then 400 PKC_2008 naming cursor', async () => {
    const { partnerId } = await partnerWithThreeTransfers();
    const period = { currency: 'USD', ...periodAroundNow() };
    const first = (await getJson(statementUrl({ ...period, limit: '1' }), { 'x-partner-id': partnerId })).body.data;
    expect(first.hasMore).toBe(true);
    const other = await getJson(statementUrl({ ...period, limit: '1', cursor: first.nextCursor }), { 'x-partner-id': randomUUID() });
    const otherPeriod = await getJson(statementUrl({ ...period, from: new Date(Date.parse(period.from) - 1).toISOString(), limit: '1', cursor: first.nextCursor }), { 'x-partner-id': partnerId });
    for (const answer of [other, otherPeriod]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'PKC_2008', message: expect.stringContaining('cursor') });
    }
  });

  it('when a statement line is written, changed or deleted by SQL directly, then the database refuses it', async () => {
    await partnerWithThreeTransfers();
    const line = (await harness.sql.query<{ line_id: string; account_id: string; entry_id: string; transfer_id: string }>('SELECT line_id, account_id, entry_id, transfer_id FROM partner_statement_lines LIMIT 1')).rows[0];
    await expect(
      harness.sql.query('INSERT INTO partner_statement_lines (account_id, entry_id, transfer_id, amount_minor, balance_after_minor) VALUES ($1, $2, $3, 1, 1)', [line?.account_id, line?.entry_id, line?.transfer_id]),
    ).rejects.toThrow(/written only by the ledger entries trigger/);
    await expect(harness.sql.query('UPDATE partner_statement_lines SET balance_after_minor = 0 WHERE line_id = $1', [line?.line_id])).rejects.toThrow(/append-only/);
    await expect(harness.sql.query('DELETE FROM partner_statement_lines WHERE line_id = $1', [line?.line_id])).rejects.toThrow(/append-only/);
  });

  it('when the ledger is read directly, then every partner account’s last statement line holds its balance', async () => {
    await partnerWithThreeTransfers();
    const drift = await harness.sql.query(
      `SELECT a.account_id FROM ledger_accounts a
         LEFT JOIN LATERAL (SELECT s.balance_after_minor FROM partner_statement_lines s WHERE s.account_id = a.account_id ORDER BY s.posted_at DESC, s.line_id DESC LIMIT 1) l ON true
        WHERE a.kind = 'partner' AND coalesce(l.balance_after_minor, 0) <> a.balance_minor`,
    );
    expect(drift.rows).toEqual([]);
  });
});
