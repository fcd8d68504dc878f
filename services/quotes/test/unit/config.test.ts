import { quotesConfigSchema, readQuotesConfig } from '../../src/config';

describe('readQuotesConfig: the breaker towards the wallet', () => {
  test('when nothing is set, then the BREAKER_* defaults apply', () => {
    expect(readQuotesConfig({})).toMatchObject({ BREAKER_ERROR_THRESHOLD_PERCENT: 50, BREAKER_VOLUME_THRESHOLD: 5, BREAKER_RESET_TIMEOUT_MS: 5_000, BREAKER_ROLLING_WINDOW_MS: 10_000 });
  });

  test('when the deprecated WALLET_BREAKER_* names are set, then they are read as BREAKER_* for one more release', () => {
    const config = readQuotesConfig({ WALLET_BREAKER_VOLUME_THRESHOLD: '3', WALLET_BREAKER_RESET_TIMEOUT_MS: '60000' });
    expect([config.BREAKER_VOLUME_THRESHOLD, config.BREAKER_RESET_TIMEOUT_MS]).toEqual([3, 60_000]);
  });

  test('when both names are set, then BREAKER_* wins', () => {
    expect(readQuotesConfig({ WALLET_BREAKER_VOLUME_THRESHOLD: '3', BREAKER_VOLUME_THRESHOLD: '8' }).BREAKER_VOLUME_THRESHOLD).toBe(8);
  });

  test('when the schema is listed, then it has one set of breaker keys, all BREAKER_*', () => {
    expect(Object.keys(quotesConfigSchema.shape).filter((key) => key.includes('BREAKER'))).toEqual([
      'BREAKER_ERROR_THRESHOLD_PERCENT',
      'BREAKER_VOLUME_THRESHOLD',
      'BREAKER_RESET_TIMEOUT_MS',
      'BREAKER_ROLLING_WINDOW_MS',
    ]);
  });
});
