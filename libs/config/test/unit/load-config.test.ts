import { ConfigError, baseServiceConfigSchema, fields, loadConfig, z } from '../../src';

const schema = z.object({ PORT: fields.port(8080), API_SECRET: z.string().min(10) });

describe('loadConfig', () => {
  it('when the environment is valid, then the parsed config is frozen with defaults applied', () => {
    const config = loadConfig(schema, { API_SECRET: 'a-long-secret-value' });
    expect(config).toEqual({ PORT: 8080, API_SECRET: 'a-long-secret-value' });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('when a value is invalid, then it fails naming the key and never echoing the value', () => {
    let caught: unknown;
    try {
      loadConfig(schema, { PORT: '99999', API_SECRET: 'short' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message).toContain('PORT');
    expect(message).toContain('API_SECRET');
    expect(message).not.toContain('short');
  });
});

describe('the migration lock timeout every service reads', () => {
  it('when MIGRATION_LOCK_TIMEOUT_MS is unset, a number or not a number, then the default, that number, or an error naming it', () => {
    expect(loadConfig(baseServiceConfigSchema, {}).MIGRATION_LOCK_TIMEOUT_MS).toBe(5_000);
    expect(loadConfig(baseServiceConfigSchema, { MIGRATION_LOCK_TIMEOUT_MS: '0' }).MIGRATION_LOCK_TIMEOUT_MS).toBe(0);
    expect(loadConfig(baseServiceConfigSchema, { MIGRATION_LOCK_TIMEOUT_MS: '12000' }).MIGRATION_LOCK_TIMEOUT_MS).toBe(12_000);
    expect(() => loadConfig(baseServiceConfigSchema, { MIGRATION_LOCK_TIMEOUT_MS: '5s' })).toThrow('MIGRATION_LOCK_TIMEOUT_MS');
  });
});
