import { ConfigError, fields, loadConfig, z } from '@pwa/config';
import { parseSentinelAddresses, redisSentinelConfigFields, redisSentinelOf } from '../../src/redis-sentinel-settings';

/** A service's schema as the services write it: REDIS_URL, and the Sentinel fragment spread beside it. */
const schema = z.object({ REDIS_URL: fields.redisUrl, ...redisSentinelConfigFields });

function configOf(env: Record<string, string | undefined>) {
  return loadConfig(schema, env);
}

describe('Redis Sentinel settings', () => {
  test('when none is set, then the service connects to REDIS_URL alone', () => {
    const config = configOf({});

    expect(config.REDIS_SENTINELS).toBeUndefined();
    expect(redisSentinelOf(config)).toBeUndefined();
  });

  test('when they are set as compose or Helm render an unset value (empty), then they count as unset', () => {
    const config = configOf({ REDIS_SENTINELS: '', REDIS_SENTINEL_MASTER_NAME: ' ', REDIS_SENTINEL_PASSWORD: '' });

    expect(redisSentinelOf(config)).toBeUndefined();
  });

  test('when sentinels and the master name are set, then the connection goes through those sentinels to that master', () => {
    const config = configOf({
      REDIS_SENTINELS: 'sentinel-0.redis:26379, sentinel-1.redis ,[fd00::7]:26380,10.0.0.4:5000',
      REDIS_SENTINEL_MASTER_NAME: 'pwa',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
    });

    expect(redisSentinelOf(config)).toEqual({
      sentinels: [
        { host: 'sentinel-0.redis', port: 26379 },
        { host: 'sentinel-1.redis', port: 26379 },
        { host: 'fd00::7', port: 26380 },
        { host: '10.0.0.4', port: 5000 },
      ],
      masterName: 'pwa',
      password: 'sentinel-secret',
    });
  });

  test.each([
    ['a port out of range', 'sentinel-0:70000', 'port outside'],
    ['an empty entry', 'sentinel-0:26379,,sentinel-1:26379', 'empty entry'],
    ['a duplicate', 'sentinel-0:26379,sentinel-0', 'listed twice'],
    ['a URL instead of host:port', 'redis://sentinel-0:26379', 'not host:port'],
    ['a host with a space', 'sentinel 0:26379', 'no valid host'],
  ])('when REDIS_SENTINELS has %s, then the service refuses to boot and names the key', (_case, value, problem) => {
    expect(() => configOf({ REDIS_SENTINELS: value, REDIS_SENTINEL_MASTER_NAME: 'pwa' })).toThrow(ConfigError);
    expect(() => configOf({ REDIS_SENTINELS: value, REDIS_SENTINEL_MASTER_NAME: 'pwa' })).toThrow(new RegExp(`REDIS_SENTINELS: .*${problem}`));
  });

  test('when the sentinels are set without a master name, then the service refuses to boot', () => {
    const config = configOf({ REDIS_SENTINELS: 'sentinel-0:26379' });

    expect(() => redisSentinelOf(config)).toThrow(/REDIS_SENTINEL_MASTER_NAME: required when REDIS_SENTINELS is set/);
  });

  test('when a master name or sentinel password is set without sentinels, then the service refuses to boot rather than ignore it', () => {
    const config = configOf({ REDIS_SENTINEL_MASTER_NAME: 'pwa', REDIS_SENTINEL_PASSWORD: 'sentinel-secret' });

    let refusal: unknown;
    try {
      redisSentinelOf(config);
    } catch (error) {
      refusal = error;
    }

    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).problems).toEqual([
      expect.stringMatching(/^REDIS_SENTINEL_MASTER_NAME: set only with REDIS_SENTINELS/),
      expect.stringMatching(/^REDIS_SENTINEL_PASSWORD: set only with REDIS_SENTINELS/),
    ]);
    expect((refusal as Error).message).not.toContain('sentinel-secret');
  });

  test('when a master name has characters Sentinel config cannot hold, then the service refuses to boot', () => {
    expect(() => configOf({ REDIS_SENTINELS: 'sentinel-0', REDIS_SENTINEL_MASTER_NAME: 'my master' })).toThrow(/REDIS_SENTINEL_MASTER_NAME/);
  });

  test('when more than 16 sentinels are listed, then the list is refused', () => {
    const list = Array.from({ length: 17 }, (_, index) => `sentinel-${String(index)}`).join(',');

    expect(parseSentinelAddresses(list).problems).toContain('at most 16 sentinels');
  });
});
