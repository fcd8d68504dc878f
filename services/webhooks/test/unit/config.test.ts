import { randomBytes } from 'node:crypto';
import { readWebhooksConfig } from '../../src/config';

describe('webhooks config', () => {
  const key = randomBytes(32).toString('base64');

  test('when only the sealing key is given, then the spec defaults apply and the sandbox allows private targets', () => {
    const config = readWebhooksConfig({ WEBHOOK_SECRET_SEALING_KEY: key });

    expect(config).toMatchObject({ PORT: 4106, WEBHOOK_ATTEMPT_TIMEOUT_MS: 10_000, WEBHOOK_RETRY_DELAYS_MS: [10_000, 60_000, 300_000], WEBHOOK_RETRY_JITTER_RATIO: 0.2, WEBHOOK_ALLOW_PRIVATE_TARGETS: true });
  });

  test('when the environment is production, then private targets are refused by default and cannot be allowed', () => {
    expect(readWebhooksConfig({ WEBHOOK_SECRET_SEALING_KEY: key, ENVIRONMENT: 'production' }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(() => readWebhooksConfig({ WEBHOOK_SECRET_SEALING_KEY: key, ENVIRONMENT: 'production', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).toThrow('WEBHOOK_ALLOW_PRIVATE_TARGETS');
  });

  test.each([{}, { WEBHOOK_SECRET_SEALING_KEY: randomBytes(16).toString('base64') }, { WEBHOOK_SECRET_SEALING_KEY: key, WEBHOOK_RETRY_DELAYS_MS: '10,abc' }, { WEBHOOK_SECRET_SEALING_KEY: key, WEBHOOK_RETRY_DELAYS_MS: '' }])(
    'when the configuration is %p, then the service refuses to start',
    (env) => {
      expect(() => readWebhooksConfig(env)).toThrow('Invalid configuration');
    },
  );
});
