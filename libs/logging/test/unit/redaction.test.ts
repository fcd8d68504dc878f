import { scrubSecrets } from '../../src';
import { createCapturedLogger } from '../../../../test/support/captured-logger';

const captureLogger = () => createCapturedLogger('redaction-test');

describe('log redaction', () => {
  it('when an object with secrets and tokens is logged, then their values never reach the line', () => {
    const { logger, text } = captureLogger();
    logger.info(
      {
        client_secret: 'pwsk_sandbox_SECRET1',
        body: { client_secret: 'pwsk_sandbox_SECRET2' },
        req: { headers: { authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.sig' } },
        access_token: 'TOKEN3',
        password: 'PASSWORD4',
      },
      'request',
    );
    const line = text();
    for (const secret of ['SECRET1', 'SECRET2', 'eyJhbGciOiJFUzI1NiJ9', 'TOKEN3', 'PASSWORD4']) expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
  });

  it('when an error message carries a URL with credentials or a bearer token, then they are scrubbed', () => {
    const { logger, text } = captureLogger();
    logger.error({ err: new Error('connect failed amqp://app:s3cr3t@mq:5672 with Bearer abc.def.ghi') }, 'failed');
    expect(text()).not.toContain('s3cr3t');
    expect(text()).not.toContain('abc.def.ghi');
  });

  it('when free text has a JWT, then scrubSecrets removes it', () => {
    expect(scrubSecrets('token eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln end')).toBe('token [redacted-jwt] end');
  });
});

describe('HTTP Basic credentials in free text', () => {
  it('when free text has an Authorization: Basic value, then scrubSecrets removes it', () => {
    const basic = Buffer.from('3f0c7a1e-0000-4000-8000-000000000001:pwsk_sandbox_secret').toString('base64');
    expect(scrubSecrets(`authorization: Basic ${basic} end`)).toBe('authorization: Basic [redacted] end');
  });

  it('when free text names the Basic tier, then scrubSecrets leaves it alone', () => {
    expect(scrubSecrets('limits of the Basic tier')).toBe('limits of the Basic tier');
  });
});
