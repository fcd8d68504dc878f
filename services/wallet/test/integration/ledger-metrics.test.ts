import { createTestPartner, createTestUser, expectLedgerInvariantsHold, postJson, startWalletHarness, transferBody, type WalletHarness } from './wallet-harness';
import { seriesValue } from '../../../../test/support/prometheus-text';

/** The value of one series in Prometheus text, matched by name and a subset of its labels. */

let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness({ LEDGER_INVARIANT_CHECK_INTERVAL_MS: '100' });
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

const scrape = async (): Promise<string> => (await fetch(`${harness.baseUrl}/metrics`)).text();

/** Scrapes until `accept` holds (the monitor runs in the background), or fails after 5 s. */
async function scrapeUntil(accept: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const text = await scrape();
    if (accept(text) || Date.now() > deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function sumOfBalances(kind: string, currency: string): Promise<number> {
  const result = await harness.sql.query<{ sum: string | null }>('SELECT sum(balance_minor)::text AS sum FROM ledger_accounts WHERE kind = $1 AND currency = $2', [kind, currency]);
  return Number(result.rows[0]?.sum ?? 0);
}

describe('wallet metrics (GET /metrics)', () => {
  it('when a collection and a disbursement post, then ledger_postings_total and ledger_posted_minor_total move by type and currency', async () => {
    const before = await scrape();
    const user = await createTestUser(harness, { balances: { USD: 10_000n } });
    const partnerId = await createTestPartner(harness, { USD: 50_000n });

    const collection = await postJson(`${harness.baseUrl}/internal/transfers`, transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '1500', feeMinor: '30' }));
    const disbursement = await postJson(`${harness.baseUrl}/internal/transfers`, transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '2500', feeMinor: '50' }));
    const refused = await postJson(`${harness.baseUrl}/internal/transfers`, transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '999999', feeMinor: '0' }));
    const after = await scrape();

    expect([collection.status, disbursement.status, refused.status]).toEqual([200, 200, 400]);
    for (const type of ['collection', 'disbursement']) {
      for (const currency of ['LRD', 'USD']) {
        expect(seriesValue(before, 'ledger_postings_total', { type, currency, service: 'wallet' })).toBe(0);
        expect(seriesValue(before, 'ledger_posted_minor_total', { type, currency })).toBe(0);
      }
    }
    expect(seriesValue(after, 'ledger_postings_total', { type: 'collection', currency: 'USD' })).toBe(1);
    expect(seriesValue(after, 'ledger_posted_minor_total', { type: 'collection', currency: 'USD' })).toBe(1500);
    expect(seriesValue(after, 'ledger_postings_total', { type: 'disbursement', currency: 'USD' })).toBe(1);
    expect(seriesValue(after, 'ledger_posted_minor_total', { type: 'disbursement', currency: 'USD' })).toBe(2500);
    expect(seriesValue(after, 'ledger_postings_total', { type: 'collection', currency: 'LRD' })).toBe(0);
    expect(seriesValue(after, 'pkc_errors_total', { code: 'PKC_4001', status_code: '400' })).toBe(1);
  });

  it('when a posting is replayed with the same transfer id, then it is counted once', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 10_000n } });
    const partnerId = await createTestPartner(harness, { LRD: 50_000n });
    const body = transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '700', feeMinor: '0' });
    const before = await scrape();

    const first = await postJson(`${harness.baseUrl}/internal/transfers`, body);
    const replay = await postJson(`${harness.baseUrl}/internal/transfers`, body);
    const after = await scrape();

    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.body).toEqual(first.body);
    const moved = (name: string): number =>
      (seriesValue(after, name, { type: 'disbursement', currency: 'LRD' }) ?? NaN) - (seriesValue(before, name, { type: 'disbursement', currency: 'LRD' }) ?? NaN);
    expect(moved('ledger_postings_total')).toBe(1);
    expect(moved('ledger_posted_minor_total')).toBe(700);
  });

  it('when the ledger holds balances, then ledger_account_balance_minor sums them per kind and currency, users under "user"', async () => {
    await createTestUser(harness, { balances: { LRD: 12_345n } });
    await createTestPartner(harness, { LRD: 777n });

    const text = await scrape();

    expect(await sumOfBalances('user_wallet', 'LRD')).toBeGreaterThanOrEqual(12_345);
    for (const currency of ['LRD', 'USD']) {
      expect(seriesValue(text, 'ledger_account_balance_minor', { kind: 'user', currency })).toBe(await sumOfBalances('user_wallet', currency));
      for (const kind of ['partner', 'fee_revenue', 'funding']) {
        expect(seriesValue(text, 'ledger_account_balance_minor', { kind, currency })).toBe(await sumOfBalances(kind, currency));
      }
    }
    expect(seriesValue(text, 'ledger_account_balance_minor', { kind: 'funding', currency: 'LRD' })).toBeLessThan(0);
  });

  it('when the periodic check finds the ledger sound, then corrupted, then repaired, then ledger_invariant_ok reads 1, 0, 1 with a fresh run time', async () => {
    const sound = await scrapeUntil((text) => seriesValue(text, 'ledger_invariant_ok', {}) === 1);
    const firstRunSeconds = seriesValue(sound, 'ledger_invariant_check_last_run_timestamp_seconds', {}) ?? 0;
    const fee = await harness.sql.query<{ account_id: string; balance_minor: string }>("SELECT account_id, balance_minor::text AS balance_minor FROM ledger_accounts WHERE kind = 'fee_revenue' AND currency = 'USD'");
    const { account_id: accountId, balance_minor: balanceMinor } = fee.rows[0] ?? { account_id: '', balance_minor: '0' };
    const setBehindTheTriggers = async (minor: bigint): Promise<void> => {
      const client = await harness.sql.connect();
      try {
        await client.query('BEGIN');
        await client.query('SET LOCAL session_replication_role = replica');
        await client.query('UPDATE ledger_accounts SET balance_minor = $2 WHERE account_id = $1', [accountId, minor.toString()]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    };

    await setBehindTheTriggers(BigInt(balanceMinor) + 5n);
    const broken = await scrapeUntil((text) => seriesValue(text, 'ledger_invariant_ok', {}) === 0);
    await setBehindTheTriggers(BigInt(balanceMinor));
    const repaired = await scrapeUntil((text) => seriesValue(text, 'ledger_invariant_ok', {}) === 1);

    expect(seriesValue(sound, 'ledger_invariant_ok', { service: 'wallet' })).toBe(1);
    expect(firstRunSeconds).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(seriesValue(broken, 'ledger_invariant_ok', {})).toBe(0);
    expect(seriesValue(broken, 'ledger_invariant_check_last_run_timestamp_seconds', {})).toBeGreaterThan(firstRunSeconds);
    expect(seriesValue(repaired, 'ledger_invariant_ok', {})).toBe(1);
  });
});
