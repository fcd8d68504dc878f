import fc from 'fast-check';
import { openApiAnswerValidator } from '../support/openapi-validator';
import { accessTokenFor, onboardPartner, type OnboardedPartner } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner, type WalletUser } from '../support/wallet-users';

/**
 * GET /partner/v1/pricing through the gateway over HTTPS: it names the fee schedules the quotes
 * use, so for any amount the fee computed from the published schedule (here, independently of the
 * quotes service's code) is the fee a quote then charges; an operator's change shows at once and
 * prices the next quote; the rate limit is the one the gateway applies.
 */
type QuoteType = 'collection' | 'disbursement';
type Currency = 'LRD' | 'USD';
interface PublishedSchedule {
  revision: number;
  tiers: { upTo: number | null; flatFee: number; basisPoints: number }[];
  minimumFee: number;
  maximumFee: number;
}
interface PublishedCurrency {
  currency: Currency;
  decimals: number;
  minimumAmount: number;
  maximumAmount: number;
  fees: Record<QuoteType, PublishedSchedule | null>;
}

const minorOf = (major: number): number => Math.round(major * 100);

/** The guide's rule, in whole cents: the first tier the amount does not exceed, flat plus basis points rounded half up, held within the bounds. */
function feeMinorFrom(schedule: PublishedSchedule, amountMinor: number): number {
  const tier = schedule.tiers.find((candidate) => candidate.upTo === null || amountMinor <= minorOf(candidate.upTo));
  if (!tier) throw new Error('the published schedule has no tier for the amount');
  const fee = minorOf(tier.flatFee) + Math.floor((amountMinor * tier.basisPoints * 2 + 10_000) / 20_000);
  return Math.min(Math.max(fee, minorOf(schedule.minimumFee)), minorOf(schedule.maximumFee));
}

describe('the partner’s pricing', () => {
  let stack: Stack;
  let partner: OnboardedPartner;
  let token: string;
  let user: WalletUser;

  beforeAll(async () => {
    stack = await startStack({ logLevel: 'warn' });
    // Its own limit, above the default: the property below sends sixty quotes in a few seconds, and the pricing must name this one.
    partner = await onboardPartner(stack, { rateLimitPerMinute: 1_000 });
    user = await createWalletUser(stack, { tier: 'Platinum' });
    await Promise.all([
      fundPartner(stack, partner.partnerId, 'USD', '20000.00'),
      fundPartner(stack, partner.partnerId, 'LRD', '4000000.00'),
      creditWallet(stack, user, 'USD', '20000'),
      creditWallet(stack, user, 'LRD', '4000000'),
    ]);
    token = await accessTokenFor(stack.client, partner);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function pricing(): Promise<{ currencies: PublishedCurrency[]; rateLimit: { requestsPerMinute: number | null } }> {
    const answer = await stack.client.get('/partner/v1/pricing', { bearer: token });
    expect(answer.status).toBe(200);
    openApiAnswerValidator().validate({ method: 'GET', path: '/partner/v1/pricing', status: answer.status, contentType: answer.headers['content-type'], text: answer.text });
    expect(answer.body.data.rateLimit.requestsPerMinute).toBe(Number(answer.headers['ratelimit-limit']));
    return answer.body.data;
  }

  test('when asked, then it names both currencies with their bounds and decimals, each type’s schedule, and the rate limit the gateway applies', async () => {
    const published = await pricing();
    expect(published.currencies.map((each) => [each.currency, each.decimals, each.minimumAmount, each.maximumAmount])).toEqual([
      ['LRD', 2, 50, 1850000],
      ['USD', 2, 1, 10000],
    ]);
    for (const each of published.currencies) {
      for (const type of ['collection', 'disbursement'] as const) expect(each.fees[type]?.tiers.at(-1)?.upTo).toBeNull();
    }
    expect(published.rateLimit.requestsPerMinute).toBe(1_000);
  });

  test('when random amounts are quoted, then each quote’s fee is the one computed from the published schedule', async () => {
    const published = await pricing();
    const cases = fc.tuple(fc.constantFrom<QuoteType>('collection', 'disbursement'), fc.constantFrom<Currency>('LRD', 'USD'), fc.double({ min: 0, max: 1, noNaN: true }));
    await fc.assert(
      fc.asyncProperty(cases, async ([type, currency, position]) => {
        const bounds = published.currencies.find((each) => each.currency === currency);
        const schedule = bounds?.fees[type];
        if (!bounds || !schedule) throw new Error(`no ${type} schedule in ${currency}`);
        // Spread over every tier: the amount's logarithm is uniform between the bounds.
        const [low, high] = [minorOf(bounds.minimumAmount), minorOf(bounds.maximumAmount) / 2];
        const amountMinor = Math.round(Math.exp(Math.log(low) + position * (Math.log(high) - Math.log(low))));
        const body = { phone: user.phone, amount: amountMinor / 100, currency };
        const quote = await stack.client.post(`/partner/v1/${type}/quote`, body, { bearer: token });
        expect([type, currency, amountMinor, quote.status]).toEqual([type, currency, amountMinor, 200]);
        expect([type, currency, amountMinor, minorOf(quote.body.data.fee as number)]).toEqual([type, currency, amountMinor, feeMinorFrom(schedule, amountMinor)]);
      }),
      { numRuns: 60 },
    );
  });

  test('when the operator changes a schedule, then the pricing shows the new revision at once and the next quote charges it', async () => {
    const before = (await pricing()).currencies.find((each) => each.currency === 'USD')?.fees.disbursement;
    await stack.quotesOperator(['set-fee', '--type', 'disbursement', '--currency', 'USD', '--tiers', '[{"upToMinor":"5000","flatMinor":"10","basisPoints":200},{"upToMinor":null,"flatMinor":"40","basisPoints":150}]', '--min', '0.20', '--max', '30']);
    const after = (await pricing()).currencies.find((each) => each.currency === 'USD')?.fees.disbursement;
    expect(after).toEqual({ revision: (before?.revision ?? 0) + 1, tiers: [{ upTo: 50, flatFee: 0.1, basisPoints: 200 }, { upTo: null, flatFee: 0.4, basisPoints: 150 }], minimumFee: 0.2, maximumFee: 30 });
    const quote = await stack.client.post('/partner/v1/disbursement/quote', { phone: user.phone, amount: 123.45, currency: 'USD' }, { bearer: token });
    expect(minorOf(quote.body.data.fee as number)).toBe(feeMinorFrom(after as PublishedSchedule, 12_345));
    expect(minorOf(quote.body.data.fee as number)).toBe(40 + 185);
  });

  test('when asked without a token, then 401 as every bearer route', async () => {
    const answer = await stack.client.get('/partner/v1/pricing');
    expect([answer.status, answer.body.code]).toEqual([401, 'PKC_1005']);
  });
});
