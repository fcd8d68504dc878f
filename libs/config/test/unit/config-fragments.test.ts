import {
  ConfigError,
  baseServiceConfigSchema,
  breakerConfigFields,
  breakerKeysRenamedFrom,
  breakerSettingsOf,
  defineTestHooks,
  loadConfig,
  outboxConfigFields,
  outboxRelayTestHooks,
  shutdownConfigFields,
  telemetryConfigFields,
  warnOfRenamedKeys,
  z,
} from '../../src';

const serviceSchema = baseServiceConfigSchema.extend({ ...breakerConfigFields, ...outboxConfigFields });
const renamedKeys = breakerKeysRenamedFrom('UPSTREAM_');

function recordingLogger(): { warn: (fields: Record<string, unknown>, message: string) => void; lines: { fields: Record<string, unknown>; message: string }[] } {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  return { lines, warn: (fields, message) => lines.push({ fields, message }) };
}

describe('the breaker and outbox fragments', () => {
  it('when nothing is set, then the breaker and outbox keys have their defaults under one prefix each', () => {
    const config = loadConfig(serviceSchema, {});
    expect(breakerSettingsOf(config)).toEqual({ errorThresholdPercent: 50, volumeThreshold: 5, resetTimeoutMs: 5_000, rollingWindowMs: 10_000 });
    expect([config.OUTBOX_POLL_INTERVAL_MS, config.OUTBOX_PUBLISH_ATTEMPTS_MAX]).toEqual([200, 5]);
  });

  it('when a breaker value is out of range, then the boot fails naming the key', () => {
    expect(() => loadConfig(serviceSchema, { BREAKER_ERROR_THRESHOLD_PERCENT: '101' })).toThrow('BREAKER_ERROR_THRESHOLD_PERCENT');
  });

  it('when only the deprecated UPSTREAM_BREAKER_* or WALLET_BREAKER_* names are set, then their values are read as BREAKER_*', () => {
    const upstream = loadConfig(serviceSchema, { UPSTREAM_BREAKER_VOLUME_THRESHOLD: '2', UPSTREAM_BREAKER_RESET_TIMEOUT_MS: '60000' }, { renamedKeys });
    expect([upstream.BREAKER_VOLUME_THRESHOLD, upstream.BREAKER_RESET_TIMEOUT_MS]).toEqual([2, 60_000]);
    const wallet = loadConfig(serviceSchema, { WALLET_BREAKER_ERROR_THRESHOLD_PERCENT: '20', WALLET_BREAKER_ROLLING_WINDOW_MS: '3000' }, { renamedKeys: breakerKeysRenamedFrom('WALLET_') });
    expect([wallet.BREAKER_ERROR_THRESHOLD_PERCENT, wallet.BREAKER_ROLLING_WINDOW_MS]).toEqual([20, 3_000]);
  });

  it('when both the deprecated and the current name are set, then the current one wins', () => {
    const config = loadConfig(serviceSchema, { UPSTREAM_BREAKER_VOLUME_THRESHOLD: '2', BREAKER_VOLUME_THRESHOLD: '7' }, { renamedKeys });
    expect(config.BREAKER_VOLUME_THRESHOLD).toBe(7);
  });

  it('when a deprecated name holds an invalid value, then the boot fails naming the current key', () => {
    expect(() => loadConfig(serviceSchema, { UPSTREAM_BREAKER_VOLUME_THRESHOLD: 'many' }, { renamedKeys })).toThrow('BREAKER_VOLUME_THRESHOLD');
  });

  it('when deprecated names are set, then one warning per name names the old and the new key', () => {
    const logger = recordingLogger();
    warnOfRenamedKeys(logger, { UPSTREAM_BREAKER_VOLUME_THRESHOLD: '2', UPSTREAM_BREAKER_RESET_TIMEOUT_MS: '1', BREAKER_RESET_TIMEOUT_MS: '9', PORT: '1' }, renamedKeys);
    expect(logger.lines.map((line) => line.fields)).toEqual([
      { deprecatedKey: 'UPSTREAM_BREAKER_VOLUME_THRESHOLD', replacementKey: 'BREAKER_VOLUME_THRESHOLD' },
      { deprecatedKey: 'UPSTREAM_BREAKER_RESET_TIMEOUT_MS', replacementKey: 'BREAKER_RESET_TIMEOUT_MS' },
    ]);
    expect(logger.lines[0]?.message).toContain('UPSTREAM_BREAKER_VOLUME_THRESHOLD');
    expect(logger.lines[0]?.message).toContain('BREAKER_VOLUME_THRESHOLD');
    expect(logger.lines[1]?.message).toContain('BREAKER_RESET_TIMEOUT_MS is set too and wins');
  });

  it('when only current names are set, then nothing is logged', () => {
    const logger = recordingLogger();
    warnOfRenamedKeys(logger, { BREAKER_VOLUME_THRESHOLD: '2' }, renamedKeys);
    expect(logger.lines).toEqual([]);
  });
});

describe('test hooks', () => {
  const postingHooks = defineTestHooks({ POST_DELAY_MS: z.coerce.number().int().min(0).default(0), POST_DELAY_POINT: z.enum(['early', 'late']).default('early') }, ['POST_DELAY_MS']);

  it('when the environment is the sandbox, then the hooks are read beside the production schema', () => {
    const config = loadConfig(serviceSchema, { ENVIRONMENT: 'sandbox', OUTBOX_RELAY_START_DELAY_MS: '60000' }, { testHooks: outboxRelayTestHooks });
    expect(config.OUTBOX_RELAY_START_DELAY_MS).toBe(60_000);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('when a hook is not set, then it has its default (off) in either environment', () => {
    expect(loadConfig(serviceSchema, {}, { testHooks: outboxRelayTestHooks }).OUTBOX_RELAY_START_DELAY_MS).toBe(0);
    expect(loadConfig(serviceSchema, { ENVIRONMENT: 'production' }, { testHooks: outboxRelayTestHooks }).OUTBOX_RELAY_START_DELAY_MS).toBe(0);
    expect(loadConfig(serviceSchema, { ENVIRONMENT: 'production', OUTBOX_RELAY_START_DELAY_MS: '0' }, { testHooks: outboxRelayTestHooks }).OUTBOX_RELAY_START_DELAY_MS).toBe(0);
  });

  it('when a switch is on in production, then the boot fails naming it', () => {
    let caught: unknown;
    try {
      loadConfig(serviceSchema, { ENVIRONMENT: 'production', OUTBOX_RELAY_START_DELAY_MS: '1000' }, { testHooks: outboxRelayTestHooks });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual(['OUTBOX_RELAY_START_DELAY_MS: a test hook, read in the sandbox only; in production it must be unset or 0']);
  });

  it('when only a hook option (not a switch) is set in production, then the boot goes on and the hook keeps its defaults', () => {
    const config = loadConfig(serviceSchema, { ENVIRONMENT: 'production', POST_DELAY_POINT: 'late' }, { testHooks: postingHooks });
    expect([config.POST_DELAY_MS, config.POST_DELAY_POINT]).toEqual([0, 'early']);
  });

  it('when a hook value is invalid, then the boot fails naming it in either environment', () => {
    expect(() => loadConfig(serviceSchema, { POST_DELAY_POINT: 'never' }, { testHooks: postingHooks })).toThrow('POST_DELAY_POINT');
    expect(() => loadConfig(serviceSchema, { ENVIRONMENT: 'production', POST_DELAY_POINT: 'never' }, { testHooks: postingHooks })).toThrow('POST_DELAY_POINT');
  });

  it('when the production schema has no hooks, then its parsed keys do not list them', () => {
    expect(Object.keys(serviceSchema.shape)).not.toContain('OUTBOX_RELAY_START_DELAY_MS');
    expect(loadConfig(serviceSchema, { OUTBOX_RELAY_START_DELAY_MS: '5' })).not.toHaveProperty('OUTBOX_RELAY_START_DELAY_MS');
  });
});

describe('the graceful stop and trace settings every service and the gateway share', () => {
  it('when nothing is set, then a service stops after a 2 s drain within 30 s, with traces off', () => {
    const config = loadConfig(baseServiceConfigSchema, {});
    expect([config.SHUTDOWN_DRAIN_DELAY_MS, config.SHUTDOWN_TIMEOUT_MS, config.OTEL_ENABLED, config.OTEL_EXPORTER_OTLP_ENDPOINT]).toEqual([2_000, 30_000, false, undefined]);
  });

  it('when they are set, then they are read as numbers, a boolean and a URL', () => {
    const config = loadConfig(baseServiceConfigSchema, { SHUTDOWN_DRAIN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '600000', OTEL_ENABLED: 'yes', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' });
    expect([config.SHUTDOWN_DRAIN_DELAY_MS, config.SHUTDOWN_TIMEOUT_MS, config.OTEL_ENABLED, config.OTEL_EXPORTER_OTLP_ENDPOINT]).toEqual([0, 600_000, true, 'http://collector:4318']);
  });

  it('when a value is out of its range or not of its kind, then the boot fails naming the key', () => {
    expect(() => loadConfig(baseServiceConfigSchema, { SHUTDOWN_DRAIN_DELAY_MS: '60001' })).toThrow('SHUTDOWN_DRAIN_DELAY_MS');
    expect(() => loadConfig(baseServiceConfigSchema, { SHUTDOWN_TIMEOUT_MS: '999' })).toThrow('SHUTDOWN_TIMEOUT_MS');
    expect(() => loadConfig(baseServiceConfigSchema, { OTEL_ENABLED: 'maybe' })).toThrow('OTEL_ENABLED');
    expect(() => loadConfig(baseServiceConfigSchema, { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector' })).toThrow('OTEL_EXPORTER_OTLP_ENDPOINT');
  });

  it('when the base schema is listed, then it holds both groups, so a service declares neither itself', () => {
    expect(Object.keys(baseServiceConfigSchema.shape)).toEqual(expect.arrayContaining([...Object.keys(shutdownConfigFields), ...Object.keys(telemetryConfigFields)]));
  });
});
