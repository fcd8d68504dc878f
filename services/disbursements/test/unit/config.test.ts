import { disbursementsConfigSchema, readDisbursementsConfig } from '../../src/config';

describe('readDisbursementsConfig', () => {
  test('when the deprecated UPSTREAM_BREAKER_* names are set, then they are read as BREAKER_* for one more release', () => {
    const config = readDisbursementsConfig({ UPSTREAM_BREAKER_VOLUME_THRESHOLD: '2', UPSTREAM_BREAKER_ERROR_THRESHOLD_PERCENT: '25' });
    expect([config.BREAKER_VOLUME_THRESHOLD, config.BREAKER_ERROR_THRESHOLD_PERCENT]).toEqual([2, 25]);
  });

  test('when the production schema is listed, then the crash-test OUTBOX_RELAY_START_DELAY_MS is not in it and the breaker keys are BREAKER_*', () => {
    const keys = Object.keys(disbursementsConfigSchema.shape);
    expect(keys).not.toContain('OUTBOX_RELAY_START_DELAY_MS');
    expect(keys.filter((key) => key.includes('BREAKER'))).toEqual(['BREAKER_ERROR_THRESHOLD_PERCENT', 'BREAKER_VOLUME_THRESHOLD', 'BREAKER_RESET_TIMEOUT_MS', 'BREAKER_ROLLING_WINDOW_MS']);
    expect(keys).toEqual(expect.arrayContaining(['OUTBOX_POLL_INTERVAL_MS', 'OUTBOX_PUBLISH_ATTEMPTS_MAX']));
  });

  test('when OUTBOX_RELAY_START_DELAY_MS is set in the sandbox, then the relay start is delayed; in production it is refused', () => {
    expect(readDisbursementsConfig({ OUTBOX_RELAY_START_DELAY_MS: '60000' }).OUTBOX_RELAY_START_DELAY_MS).toBe(60_000);
    expect(() => readDisbursementsConfig({ ENVIRONMENT: 'production', OUTBOX_RELAY_START_DELAY_MS: '1' })).toThrow('OUTBOX_RELAY_START_DELAY_MS');
    expect(readDisbursementsConfig({ ENVIRONMENT: 'production' }).OUTBOX_RELAY_START_DELAY_MS).toBe(0);
  });
});
