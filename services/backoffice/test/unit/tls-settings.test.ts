import { randomBytes } from 'node:crypto';
import { readBackofficeConfig } from '../../src/config';

/** Where TLS ends for the back-office (decision 0067): never plain HTTP to browsers in production by default. */
describe('the back-office TLS settings', () => {
  const base = {
    DATABASE_URL: 'postgres://backoffice@127.0.0.1:5432/pwa',
    REDIS_URL: 'redis://127.0.0.1:6379',
    BACKOFFICE_PUBLIC_URL: 'https://backoffice.internal.example',
    BACKOFFICE_SEALING_KEY: randomBytes(32).toString('base64'),
  };
  const refusalOf = (env: Record<string, string>): string => {
    try {
      readBackofficeConfig({ ...base, ...env });
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('when nothing about TLS is set outside production, then it runs in proxy mode (the in-process test stand)', () => {
    expect(readBackofficeConfig(base).TLS_MODE).toBe('proxy');
  });

  it('when a certificate and key are given without a mode, then it terminates TLS', () => {
    expect(readBackofficeConfig({ ...base, TLS_CERT_FILE: '/tls/cert.pem', TLS_KEY_FILE: '/tls/key.pem' }).TLS_MODE).toBe('terminate');
  });

  it('when terminate lacks its key file, or names only one of the pair, then the configuration is refused naming it', () => {
    expect(refusalOf({ TLS_MODE: 'terminate' })).toMatch(/TLS_CERT_FILE/);
    expect(refusalOf({ TLS_CERT_FILE: '/tls/cert.pem' })).toMatch(/TLS_KEY_FILE/);
  });

  it('when terminate serves a plain http public address, then it is refused', () => {
    expect(refusalOf({ TLS_MODE: 'terminate', TLS_CERT_FILE: '/c', TLS_KEY_FILE: '/k', BACKOFFICE_PUBLIC_URL: 'http://127.0.0.1:4107' })).toMatch(/BACKOFFICE_PUBLIC_URL/);
  });

  it('when production does not name its mode, or trusts no proxy hop behind an ingress, then it does not start', () => {
    expect(refusalOf({ ENVIRONMENT: 'production', BACKOFFICE_TRUSTED_PROXY_HOPS: '1' })).toMatch(/TLS_MODE/);
    expect(refusalOf({ ENVIRONMENT: 'production', TLS_MODE: 'proxy' })).toMatch(/BACKOFFICE_TRUSTED_PROXY_HOPS/);
    expect(refusalOf({ ENVIRONMENT: 'production', TLS_MODE: 'proxy', BACKOFFICE_TRUSTED_PROXY_HOPS: '1', BACKOFFICE_PUBLIC_URL: 'http://localhost:4107' })).toMatch(/BACKOFFICE_PUBLIC_URL/);
  });

  it('when production names proxy with a trusted hop, or terminate with its pair, then it starts', () => {
    expect(refusalOf({ ENVIRONMENT: 'production', TLS_MODE: 'proxy', BACKOFFICE_TRUSTED_PROXY_HOPS: '1' })).toBe('accepted');
    expect(refusalOf({ ENVIRONMENT: 'production', TLS_MODE: 'terminate', TLS_CERT_FILE: '/c', TLS_KEY_FILE: '/k' })).toBe('accepted');
  });
});
