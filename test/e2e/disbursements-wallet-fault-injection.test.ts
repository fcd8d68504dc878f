import { postingFaultInjectionOf, readWalletConfig } from '../../services/wallet/src/config';

/**
 * The wallet's sandbox fault injection that the disbursement timeout tests rely on
 * (WALLET_POST_DELAY_MS): off by default, and never possible in production.
 */
describe('wallet posting delay (sandbox fault injection)', () => {
  test('when nothing is configured, then there is no delay', () => {
    const config = readWalletConfig({});
    expect(config.WALLET_POST_DELAY_MS).toBe(0);
    expect(postingFaultInjectionOf(config)).toEqual({ postDelayMs: 0, postDelayPoint: 'before_claim' });
  });

  test('when a sandbox wallet is configured with a delay, then its postings use it', () => {
    const config = readWalletConfig({ ENVIRONMENT: 'sandbox', WALLET_POST_DELAY_MS: '1500', WALLET_POST_DELAY_POINT: 'before_commit' });
    expect(postingFaultInjectionOf(config)).toEqual({ postDelayMs: 1500, postDelayPoint: 'before_commit' });
  });

  test('when a production wallet is configured with a delay, then it refuses to boot', () => {
    expect(() => readWalletConfig({ ENVIRONMENT: 'production', WALLET_POST_DELAY_MS: '1' })).toThrow('WALLET_POST_DELAY_MS');
    expect(readWalletConfig({ ENVIRONMENT: 'production', WALLET_POST_DELAY_MS: '0' }).WALLET_POST_DELAY_MS).toBe(0);
  });

  test('when a configuration claims production, then no delay is ever derived from it', () => {
    expect(postingFaultInjectionOf({ ENVIRONMENT: 'production', WALLET_POST_DELAY_MS: 5000, WALLET_POST_DELAY_POINT: 'before_claim' }).postDelayMs).toBe(0);
  });
});
