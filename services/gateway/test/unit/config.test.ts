import { readGatewayConfig } from '../../src/config';

const tlsFiles = { TLS_CERT_FILE: '/etc/gateway/tls.crt', TLS_KEY_FILE: '/etc/gateway/tls.key' };

describe('readGatewayConfig', () => {
  test('when only the TLS files are given, then the documented defaults apply', () => {
    const config = readGatewayConfig(tlsFiles);

    expect(config).toMatchObject({
      PORT: 8443,
      HOST: '127.0.0.1',
      ADMIN_PORT: 9400,
      TLS_MODE: 'terminate',
      ENVIRONMENT: 'sandbox',
      REDIS_KEY_PREFIX: 'pwa:',
      BUS_EXCHANGE: 'pwa.events',
      TOKEN_ISSUER: 'https://auth.sandbox.partner-wallet.example',
      TOKEN_AUDIENCE: 'partner-wallet-api:sandbox',
      AUTH_URL: 'http://127.0.0.1:4101',
      WEBHOOKS_URL: 'http://127.0.0.1:4106',
      UPSTREAM_TIMEOUT_MS: 10_000,
      TRANSFER_UPSTREAM_TIMEOUT_MS: 30_000,
      RATE_LIMIT_PER_MINUTE: 60,
      PARTNER_CACHE_TTL_MS: 30_000,
      TOKEN_ENDPOINT_IP_LIMIT_PER_MINUTE: 30,
      TOKEN_ENDPOINT_CLIENT_FAILURES_MAX: 10,
      TOKEN_ENDPOINT_CLIENT_LOCKOUT_SECONDS: 900,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('when the environment is production, then issuer and audience follow it', () => {
    expect(readGatewayConfig({ ...tlsFiles, ENVIRONMENT: 'production' })).toMatchObject({
      TOKEN_ISSUER: 'https://auth.production.partner-wallet.example',
      TOKEN_AUDIENCE: 'partner-wallet-api:production',
    });
  });

  test('when TLS is terminated here without certificate files, then the gateway refuses to start', () => {
    expect(() => readGatewayConfig({})).toThrow(/TLS_CERT_FILE: required when TLS_MODE is terminate[\s\S]*TLS_KEY_FILE/);
  });

  test('when TLS ends at a proxy, then no certificate files are needed', () => {
    expect(readGatewayConfig({ TLS_MODE: 'proxy' })).toMatchObject({ TLS_MODE: 'proxy', TRUSTED_PROXIES: 'loopback' });
  });

  test('when the rate-limit window hook is not set, then the window is the spec\'s minute, in the sandbox and in production', () => {
    expect(readGatewayConfig(tlsFiles).RATE_LIMIT_WINDOW_SECONDS).toBe(60);
    expect(readGatewayConfig({ ...tlsFiles, ENVIRONMENT: 'production' }).RATE_LIMIT_WINDOW_SECONDS).toBe(60);
  });

  test('when a sandbox test shortens the rate-limit window, then it applies; production refuses to boot with it', () => {
    expect(readGatewayConfig({ ...tlsFiles, RATE_LIMIT_WINDOW_SECONDS: '5' }).RATE_LIMIT_WINDOW_SECONDS).toBe(5);
    expect(() => readGatewayConfig({ ...tlsFiles, ENVIRONMENT: 'production', RATE_LIMIT_WINDOW_SECONDS: '5' })).toThrow(/RATE_LIMIT_WINDOW_SECONDS: a test hook, read in the sandbox only/);
  });

  test.each(['0', '61', '2.5', 'soon', '-1'])('when the rate-limit window is %s, then the gateway refuses to start and names the key', (value) => {
    expect(() => readGatewayConfig({ ...tlsFiles, RATE_LIMIT_WINDOW_SECONDS: value })).toThrow(/RATE_LIMIT_WINDOW_SECONDS/);
  });

  test('when a value is invalid, then the error names the key', () => {
    expect(() => readGatewayConfig({ ...tlsFiles, UPSTREAM_TIMEOUT_MS: 'soon' })).toThrow(/UPSTREAM_TIMEOUT_MS/);
  });
});
