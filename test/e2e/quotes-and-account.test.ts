import { Pool } from 'pg';
import { uuidPattern } from '@pwa/contracts';
import { databaseFingerprint, type DatabaseFingerprint } from '../support/database-fingerprint';
import type { HttpsJsonClient, JsonResponse } from '../support/https-client';
import { accessTokenFor, onboardPartner, type OnboardedPartner } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import {
  createWalletUser,
  creditWallet,
  fundPartner,
  nextPhone,
  postWalletTransfer,
  setLimit,
  updateWalletUser,
  type WalletUser,
} from '../support/wallet-users';

/**
 * Account lookup, partner balance and both quote endpoints through the gateway over HTTPS, against
 * the real wallet and quotes. Every refused quote must leave the quotes and wallet schemas exactly
 * as they were (no quote, no posting, no limit usage), and the ledger must hold its invariants at
 * the end. Users are fresh per test; limit rules are changed only on tiers no other test uses.
 */
type QuoteType = 'collection' | 'disbursement';

describe('account, balance and quotes through the gateway', () => {
  let stack: Stack;
  let database: Pool;
  let partner: OnboardedPartner;
  let token: string;

  beforeAll(async () => {
    stack = await startStack({ logLevel: 'warn' });
    database = new Pool({ connectionString: stack.databaseUrl, max: 2 });
    // pool.end() does not wait for its connections to close, and the database is dropped (WITH FORCE) right after:
    // a connection still closing is then terminated, which is expected, not an error of the test.
    database.on('error', () => undefined);
    partner = await onboardPartner(stack);
    await Promise.all([fundPartner(stack, partner.partnerId, 'USD', '50000.00'), fundPartner(stack, partner.partnerId, 'LRD', '5000000.00')]);
    token = await accessTokenFor(stack.client, partner);
  });

  afterAll(async () => {
    try {
      if (stack) expect(await stack.walletOperator(['check-ledger'])).toMatchObject({ ok: true, problems: [] });
    } finally {
      await database?.end();
      await stack?.stop();
    }
  });

  const quote = (type: QuoteType, body: unknown, bearer = token, client: HttpsJsonClient = stack.client): Promise<JsonResponse> =>
    client.post(`/partner/v1/${type}/quote`, body, { bearer });

  const fingerprint = (): Promise<DatabaseFingerprint> => databaseFingerprint(stack.databaseUrl, ['quotes', 'wallet']);

  /** Sends a request that must be refused, and proves it changed nothing in quotes or wallet. */
  async function expectRefusedWithoutTrace(send: () => Promise<JsonResponse>, status: number, code: string): Promise<void> {
    const before = await fingerprint();
    const response = await send();
    // A validation refusal names its fields (decision 0075; test/e2e/validation-fields.test.ts checks which).
    const named = code.startsWith('PKC_2') ? { invalidFields: [expect.objectContaining({ field: expect.any(String), problem: expect.any(String) })] } : {};
    expect({ status: response.status, body: response.body }).toEqual({ status, body: { success: false, code, message: expect.any(String), ...named } });
    expect(await fingerprint()).toEqual(before);
  }

  async function quoteCount(): Promise<number> {
    const result = await database.query<{ count: string }>('SELECT count(*) AS count FROM quotes.quotes');
    return Number(result.rows[0]?.count);
  }

  describe('GET /partner/v1/account/{phone}', () => {
    test('when the account exists, then both phone forms find it and the answer gives the +231 form', async () => {
      const user = await createWalletUser(stack, { name: 'Comfort Doe', currencies: ['USD'] });

      const local = await stack.client.get(`/partner/v1/account/${user.localPhone}`, { bearer: token });
      const international = await stack.client.get(`/partner/v1/account/${encodeURIComponent(user.phone)}`, { bearer: token });

      const expected = { success: true, data: { name: 'Comfort Doe', phone: user.phone, accountStatus: 'active', kycStatus: 'approved', currencies: ['USD'] } };
      expect({ status: local.status, body: local.body }).toEqual({ status: 200, body: expected });
      expect({ status: international.status, body: international.body }).toEqual({ status: 200, body: expected });
    });

    test('when the phone is not a Liberian mobile number, then the answer is 400 PKC_2001', async () => {
      await expectRefusedWithoutTrace(() => stack.client.get('/partner/v1/account/12345', { bearer: token }), 400, 'PKC_2001');
    });

    test('when no account has the phone, then the answer is 404 PKC_3001', async () => {
      await expectRefusedWithoutTrace(() => stack.client.get(`/partner/v1/account/${nextPhone()}`, { bearer: token }), 404, 'PKC_3001');
    });
  });

  describe('GET /partner/v1/balance', () => {
    test('when a partner was funded, then its balance per currency comes back as JSON numbers; an unfunded one has 0', async () => {
      const fresh = await onboardPartner(stack);
      await fundPartner(stack, fresh.partnerId, 'USD', '1234.56');

      const funded = await stack.client.get('/partner/v1/balance', { bearer: await accessTokenFor(stack.client, fresh) });

      expect({ status: funded.status, body: funded.body }).toEqual({ status: 200, body: { success: true, data: { LRD: 0, USD: 1234.56 } } });
    });
  });

  describe('successful quotes', () => {
    test('when a collection quote passes every check, then it has the spec fields, the fee is locked in, and only a quote row is added', async () => {
      const user = await createWalletUser(stack, { name: 'Musu Kollie' });
      await creditWallet(stack, user, 'USD', '500.00');
      const before = await fingerprint();

      const response = await quote('collection', { phone: user.localPhone, amount: 100, currency: 'USD' });

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: {
          quoteId: expect.stringMatching(uuidPattern),
          recipient: { name: 'Musu Kollie', phone: user.phone, accountStatus: 'active' },
          amount: 100,
          currency: 'USD',
          fee: 1, // default collection schedule: 1 % up to 100.00 USD
          totalDebit: 101,
          sufficientBalance: true,
          approvalWindowMinutes: 10,
          note: expect.stringContaining('101.00 USD'),
        },
      });
      expect(response.body.data.quoteId).toBe(response.body.data.quoteId.toLowerCase());
      const after = await fingerprint();
      // The wallet is untouched: a quote moves no money and consumes no limit budget.
      for (const table of Object.keys(before).filter((name) => name.startsWith('wallet.'))) expect(after[table]).toBe(before[table]);
      const stored = await database.query('SELECT fee_minor, total_debit_minor, used_at FROM quotes.quotes WHERE quote_id = $1', [
        response.body.data.quoteId,
      ]);
      expect(stored.rows).toEqual([{ fee_minor: '100', total_debit_minor: '10100', used_at: null }]);
    });

    test('when a disbursement quote passes every check, then it shows the partner balance and the balance left after it', async () => {
      const user = await createWalletUser(stack, { name: 'Jallah Kamara' });
      const balance = await stack.client.get('/partner/v1/balance', { bearer: token });
      const partnerBalance = balance.body.data.USD as number;

      const response = await quote('disbursement', { phone: user.phone, amount: 99.99, currency: 'USD' });

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        quoteId: expect.any(String),
        recipient: { name: 'Jallah Kamara', phone: user.phone, accountStatus: 'active', hasWallet: true },
        amount: 99.99,
        currency: 'USD',
        fee: 1.25, // 0.25 + 1 % of 99.99 = 1.2499, rounded half-up to the cent
        totalDebit: 101.24,
        partnerBalance,
        sufficientBalance: true,
        note: expect.stringContaining('leaving'),
      });
      const remainingMinor = BigInt(Math.round(partnerBalance * 100)) - 10_124n;
      const remaining = `${(remainingMinor / 100n).toLocaleString('en-US')}.${(remainingMinor % 100n).toString().padStart(2, '0')} USD`;
      expect(response.body.data.note).toContain(`leaving ${remaining}`);
    });
  });

  describe('request validation on both quote endpoints', () => {
    const bodies: [string, (phone: string) => unknown, string][] = [
      ['the phone is missing', () => ({ amount: 100, currency: 'USD' }), 'PKC_2008'],
      ['the currency is missing', (phone) => ({ phone, amount: 100 }), 'PKC_2008'],
      ['the phone is not Liberian', () => ({ phone: '+2347012345678', amount: 100, currency: 'USD' }), 'PKC_2001'],
      ['the amount is a string', (phone) => ({ phone, amount: '100', currency: 'USD' }), 'PKC_2002'],
      ['the amount is negative', (phone) => ({ phone, amount: -1, currency: 'USD' }), 'PKC_2002'],
      ['the amount has 3 decimals', (phone) => ({ phone, amount: 10.005, currency: 'USD' }), 'PKC_2002'],
      ['the currency is EUR', (phone) => ({ phone, amount: 100, currency: 'EUR' }), 'PKC_2005'],
      ['the amount is below 1 USD', (phone) => ({ phone, amount: 0.99, currency: 'USD' }), 'PKC_2003'],
      ['the amount is below 50 LRD', (phone) => ({ phone, amount: 49.99, currency: 'LRD' }), 'PKC_2003'],
      ['the amount is above 10,000 USD', (phone) => ({ phone, amount: 10_000.01, currency: 'USD' }), 'PKC_2004'],
      ['the amount is above 1,850,000 LRD', (phone) => ({ phone, amount: 1_850_000.01, currency: 'LRD' }), 'PKC_2004'],
    ];
    const cases = (['collection', 'disbursement'] as const).flatMap((type) => bodies.map(([label, body, code]) => ({ type, label, body, code })));

    test.each(cases)('when a $type quote is asked for and $label, then the answer is 400 $code and nothing changes', async ({ type, body, code }) => {
      await expectRefusedWithoutTrace(() => quote(type, body('0770000001')), 400, code);
    });

    test('when a currency is switched off for disbursements (QUOTES_DISBURSEMENT_CURRENCIES=LRD), then USD disbursement quotes answer PKC_2010', async () => {
      const quotes = await stack.startExtraService('quotes', { QUOTES_DISBURSEMENT_CURRENCIES: 'LRD' });
      const gateway = await stack.startExtraGateway({ QUOTES_URL: quotes.url });
      try {
        const user = await createWalletUser(stack);
        // Tokens come from auth, so the partner's token is good at the second gateway too.
        await expectRefusedWithoutTrace(
          () => quote('disbursement', { phone: user.localPhone, amount: 10, currency: 'USD' }, token, gateway.client),
          400,
          'PKC_2010',
        );
        expect((await quote('disbursement', { phone: user.localPhone, amount: 100, currency: 'LRD' }, token, gateway.client)).status).toBe(200);
        expect((await quote('collection', { phone: user.localPhone, amount: 10, currency: 'USD' }, token, gateway.client)).body.code).toBe('PKC_4001');
      } finally {
        await gateway.stop();
        await quotes.stop();
      }
    });
  });

  describe('account checks on both quote endpoints', () => {
    interface AccountCase {
      label: string;
      options: { currencies?: ('LRD' | 'USD')[]; kyc?: 'pending' };
      arrange: (user: WalletUser) => Promise<unknown>;
      status: number;
      code: string;
    }
    const nothingMore = (): Promise<void> => Promise.resolve();
    const accountCases: AccountCase[] = [
      { label: 'the account is suspended', options: {}, arrange: (user) => updateWalletUser(stack, user, ['--status', 'suspended']), status: 403, code: 'PKC_3002' },
      { label: 'the account is closed', options: {}, arrange: (user) => updateWalletUser(stack, user, ['--status', 'closed']), status: 403, code: 'PKC_3002' },
      { label: 'the user has no USD wallet', options: { currencies: ['LRD'] }, arrange: nothingMore, status: 404, code: 'PKC_3003' },
      { label: 'the USD wallet is frozen', options: {}, arrange: (user) => updateWalletUser(stack, user, ['--freeze', 'USD']), status: 403, code: 'PKC_3004' },
      { label: 'KYC is pending', options: { kyc: 'pending' }, arrange: nothingMore, status: 403, code: 'PKC_3005' },
    ];

    test('when no account has the phone, then both quotes answer 404 PKC_3001 and nothing changes', async () => {
      const body = { phone: nextPhone(), amount: 10, currency: 'USD' };
      await expectRefusedWithoutTrace(() => quote('collection', body), 404, 'PKC_3001');
      await expectRefusedWithoutTrace(() => quote('disbursement', body), 404, 'PKC_3001');
    });

    test.each(accountCases)('when $label, then both quotes answer $status $code and nothing changes', async ({ arrange, options, status, code }) => {
      const user = await createWalletUser(stack, options);
      await arrange(user);
      const body = { phone: user.localPhone, amount: 10, currency: 'USD' };

      await expectRefusedWithoutTrace(() => quote('collection', body), status, code);
      await expectRefusedWithoutTrace(() => quote('disbursement', body), status, code);
    });
  });

  describe('balance checks', () => {
    test("when the user's balance does not cover amount plus fee, then the collection quote answers PKC_4001", async () => {
      const user = await createWalletUser(stack);
      await creditWallet(stack, user, 'USD', '50.50');

      // 50.00 + fee 0.50 = 50.50 is exactly covered; 50.01 + 0.50 is not.
      expect((await quote('collection', { phone: user.localPhone, amount: 50, currency: 'USD' })).status).toBe(200);
      await expectRefusedWithoutTrace(() => quote('collection', { phone: user.localPhone, amount: 50.01, currency: 'USD' }), 400, 'PKC_4001');
    });

    test("when the partner's balance does not cover amount plus fee, then the disbursement quote answers PKC_4002", async () => {
      // The partner (funded, then its token) and the user are made side by side: each operator call is a process.
      const [poorToken, user] = await Promise.all([
        onboardPartner(stack).then(async (poor) => {
          await fundPartner(stack, poor.partnerId, 'USD', '10.00');
          return accessTokenFor(stack.client, poor);
        }),
        createWalletUser(stack),
      ]);

      // 9.65 + fee 0.35 (0.25 + 1 %) = 10.00 is exactly covered; 9.66 + 0.35 is not.
      expect((await quote('disbursement', { phone: user.localPhone, amount: 9.65, currency: 'USD' }, poorToken)).status).toBe(200);
      await expectRefusedWithoutTrace(() => quote('disbursement', { phone: user.localPhone, amount: 9.66, currency: 'USD' }, poorToken), 400, 'PKC_4002');
    });
  });

  describe('limit checks', () => {
    test('when the amount exceeds the tier per-transaction limit (Basic: 100 USD), then both quotes answer PKC_4003', async () => {
      const user = await createWalletUser(stack, { tier: 'Basic' });
      await creditWallet(stack, user, 'USD', '1000.00');
      const body = { phone: user.localPhone, amount: 100.01, currency: 'USD' };

      await expectRefusedWithoutTrace(() => quote('collection', body), 400, 'PKC_4003');
      await expectRefusedWithoutTrace(() => quote('disbursement', body), 400, 'PKC_4003');
    });

    test('when today’s usage plus the amount exceeds the daily limit, then the quote answers PKC_4004', async () => {
      const [, user] = await Promise.all([
        setLimit(stack, { tier: 'Silver', type: 'disbursement', currency: 'USD' }, { perTransaction: '100.00', daily: '100.00' }),
        createWalletUser(stack, { tier: 'Silver' }),
      ]);
      await postWalletTransfer(stack, { type: 'disbursement', partnerId: partner.partnerId, user, currency: 'USD', amountMinor: 6_000n });

      expect((await quote('disbursement', { phone: user.localPhone, amount: 40, currency: 'USD' })).status).toBe(200);
      await expectRefusedWithoutTrace(() => quote('disbursement', { phone: user.localPhone, amount: 40.01, currency: 'USD' }), 400, 'PKC_4004');
    });

    test('when the user has made as many transactions today as the tier allows, then the quote answers PKC_4009', async () => {
      const [, user] = await Promise.all([
        setLimit(stack, { tier: 'Gold', type: 'disbursement', currency: 'USD' }, { perHourCount: 1, perDayCount: 1 }),
        createWalletUser(stack, { tier: 'Gold' }),
      ]);
      await postWalletTransfer(stack, { type: 'disbursement', partnerId: partner.partnerId, user, currency: 'USD', amountMinor: 1_000n });

      await expectRefusedWithoutTrace(() => quote('disbursement', { phone: user.localPhone, amount: 10, currency: 'USD' }), 400, 'PKC_4009');
    });

    test('when the user has made as many transactions this hour as the tier allows, then the quote answers 429 PKC_4010', async () => {
      const [, user] = await Promise.all([
        setLimit(stack, { tier: 'Gold', type: 'disbursement', currency: 'LRD' }, { perHourCount: 1, perDayCount: 5 }),
        createWalletUser(stack, { tier: 'Gold' }),
      ]);
      await postWalletTransfer(stack, { type: 'disbursement', partnerId: partner.partnerId, user, currency: 'LRD', amountMinor: 10_000n });

      await expectRefusedWithoutTrace(() => quote('disbursement', { phone: user.localPhone, amount: 100, currency: 'LRD' }), 429, 'PKC_4010');
    });

    /**
     * The wallet keeps its windows nested (daily <= weekly <= monthly <= yearly) and counts calendar
     * windows, so with usage from today only, the daily limit is always reached first. To see the
     * longer windows answer through the whole chain on any day of the year, this test lifts the
     * nesting constraint on the throwaway e2e database for one rule (Gold collection USD) and sets
     * only the window under test below today's usage plus the amount. The wallet's evaluation of the
     * windows is the real one; only the configuration is one that production refuses.
     */
    test.each([
      { window: 'weekly', column: 'weekly_max_minor', code: 'PKC_4007' },
      { window: 'monthly', column: 'monthly_max_minor', code: 'PKC_4005' },
      { window: 'yearly', column: 'yearly_max_minor', code: 'PKC_4008' },
    ])('when the $window limit would be exceeded, then the quote answers $code', async ({ column, code }) => {
      const user = await createWalletUser(stack, { tier: 'Gold' });
      await creditWallet(stack, user, 'USD', '1000.00');
      await postWalletTransfer(stack, { type: 'collection', partnerId: partner.partnerId, user, currency: 'USD', amountMinor: 6_000n });
      await database.query('ALTER TABLE wallet.tier_limits DROP CONSTRAINT IF EXISTS tier_limits_windows_nest');
      // 1,000.00 USD for every amount limit, except 100.00 USD for the window under test.
      const limits = ['per_transaction_max_minor', 'daily_max_minor', 'weekly_max_minor', 'monthly_max_minor', 'yearly_max_minor'];
      const assignments = limits.map((name) => `${name} = ${name === column ? 10_000 : 100_000}`).join(', ');
      await database.query(`UPDATE wallet.tier_limits SET ${assignments} WHERE tier = 'Gold' AND transaction_type = 'collection' AND currency = 'USD'`);

      await expectRefusedWithoutTrace(() => quote('collection', { phone: user.localPhone, amount: 40.01, currency: 'USD' }), 400, code);
    });

    test('when there is no limit rule for the tier, type and currency, then the quote answers 403 PKC_4012', async () => {
      // The wallet CLI can set a rule but not remove one, so the rule is removed in SQL (Silver collection LRD).
      await database.query(`DELETE FROM wallet.tier_limits WHERE tier = 'Silver' AND transaction_type = 'collection' AND currency = 'LRD'`);
      const user = await createWalletUser(stack, { tier: 'Silver' });
      await creditWallet(stack, user, 'LRD', '10000.00');

      await expectRefusedWithoutTrace(() => quote('collection', { phone: user.localPhone, amount: 100, currency: 'LRD' }), 403, 'PKC_4012');
    });

    test("when the user's tier has no limits configured at all, then both quotes answer 403 PKC_4011", async () => {
      await database.query(`DELETE FROM wallet.tier_limits WHERE tier = 'Platinum'`);
      const user = await createWalletUser(stack, { tier: 'Platinum' });
      await creditWallet(stack, user, 'USD', '100.00');
      const body = { phone: user.localPhone, amount: 10, currency: 'USD' };

      await expectRefusedWithoutTrace(() => quote('collection', body), 403, 'PKC_4011');
      await expectRefusedWithoutTrace(() => quote('disbursement', body), 403, 'PKC_4011');
    });
  });

  describe('permissions', () => {
    test('when a partner lacks the permission for an operation, then its quote answers 403 PKC_1008 and creates nothing', async () => {
      const [collectionOnly, disbursementOnly] = await Promise.all([
        onboardPartner(stack, { permissions: ['collection'] }),
        onboardPartner(stack, { permissions: ['disbursement'] }),
      ]);
      const [user, collectionOnlyToken, disbursementOnlyToken] = await Promise.all([
        createWalletUser(stack),
        accessTokenFor(stack.client, collectionOnly),
        accessTokenFor(stack.client, disbursementOnly),
      ]);
      const body = { phone: user.localPhone, amount: 10, currency: 'USD' };
      const before = await quoteCount();

      await expectRefusedWithoutTrace(() => quote('disbursement', body, collectionOnlyToken), 403, 'PKC_1008');
      await expectRefusedWithoutTrace(() => quote('collection', body, disbursementOnlyToken), 403, 'PKC_1008');
      expect(await quoteCount()).toBe(before);
    });
  });
});
