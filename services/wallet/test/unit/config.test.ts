import { postingFaultInjectionOf, readWalletConfig, walletConfigSchema } from '../../src/config';

describe('readWalletConfig: the posting fault injection is a sandbox test hook', () => {
  test('when the production schema is listed, then WALLET_POST_DELAY_MS and WALLET_POST_DELAY_POINT are not in it', () => {
    const keys = Object.keys(walletConfigSchema.shape);
    expect(keys).not.toContain('WALLET_POST_DELAY_MS');
    expect(keys).not.toContain('WALLET_POST_DELAY_POINT');
  });

  test('when the delay is set in the sandbox, then postings are delayed at the point given', () => {
    const config = readWalletConfig({ WALLET_POST_DELAY_MS: '1500', WALLET_POST_DELAY_POINT: 'before_commit' });
    expect(postingFaultInjectionOf(config)).toEqual({ postDelayMs: 1500, postDelayPoint: 'before_commit' });
  });

  test('when production is configured with only a delay point, then it starts without any delay', () => {
    const config = readWalletConfig({ ENVIRONMENT: 'production', WALLET_POST_DELAY_POINT: 'before_commit' });
    expect(postingFaultInjectionOf(config)).toEqual({ postDelayMs: 0, postDelayPoint: 'before_claim' });
  });

  test('when production is configured with a delay, then the boot fails naming the key', () => {
    expect(() => readWalletConfig({ ENVIRONMENT: 'production', WALLET_POST_DELAY_MS: '1' })).toThrow('WALLET_POST_DELAY_MS');
  });
});
