import { parsePermissionList, refusalForStatus } from '../../src/domain/partner';
import { parsePartnerName, parseRateLimit, parseWebhookUrl } from '../../src/domain/partner-settings';

describe('partner status', () => {
  it.each([
    ['active', undefined],
    ['suspended', 'PKC_1006'],
    ['pending_activation', 'PKC_1007'],
    ['inactive', 'PKC_1009'],
  ] as const)('when the partner is %s, then the refusal is %s', (status, code) => {
    expect(refusalForStatus(status)).toBe(code);
  });
});

describe('operator settings', () => {
  it('when permissions are listed with repeats and spaces, then they are de-duplicated and sorted', () => {
    expect(parsePermissionList(' disbursement, collection,disbursement ')).toEqual(['collection', 'disbursement']);
  });

  it('when permissions are "none", then the list is empty', () => {
    expect(parsePermissionList('none')).toEqual([]);
  });

  it('when a permission is unknown, then it is refused', () => {
    expect(() => parsePermissionList('collection,refunds')).toThrow('refunds');
  });

  it('when a rate limit is "default", then the override is cleared', () => {
    expect(parseRateLimit('default')).toBeNull();
    expect(parseRateLimit('120')).toBe(120);
  });

  it.each(['0', '-1', '1.5', 'abc', '1000000001'])('when the rate limit is %s, then it is refused', (text) => {
    expect(() => parseRateLimit(text)).toThrow();
  });

  it('when a webhook URL is plain http, then the sandbox accepts it and production refuses it', () => {
    expect(parseWebhookUrl('http://localhost:9000/hooks', 'sandbox')).toBe('http://localhost:9000/hooks');
    expect(() => parseWebhookUrl('http://partner.example/hooks', 'production')).toThrow('https');
    expect(parseWebhookUrl('https://partner.example/hooks', 'production')).toBe('https://partner.example/hooks');
    // The webhook service's SSRF rules apply when the URL is set: no private, loopback or special address outside the sandbox.
    for (const url of ['https://127.0.0.1/hooks', 'https://localhost/hooks', 'https://api.localhost/hooks', 'https://10.1.2.3/hooks', 'https://[::1]/hooks', 'https://[::ffff:192.168.0.1]/hooks', 'https://169.254.169.254/latest', 'https://0.0.0.0/hooks']) {
      expect(() => parseWebhookUrl(url, 'production')).toThrow('public address');
    }
    expect(parseWebhookUrl('https://8.8.8.8/hooks', 'production')).toBe('https://8.8.8.8/hooks');
    expect(parseWebhookUrl('http://127.0.0.1:9000/hooks', 'sandbox')).toBe('http://127.0.0.1:9000/hooks');
  });

  it('when a webhook URL embeds credentials or is not a URL, then it is refused', () => {
    expect(() => parseWebhookUrl('https://user:pass@partner.example/hooks', 'sandbox')).toThrow('credentials');
    expect(() => parseWebhookUrl('not a url', 'sandbox')).toThrow('valid URL');
    expect(parseWebhookUrl('none', 'sandbox')).toBeNull();
  });

  it('when a partner name is blank or too long, then it is refused', () => {
    expect(() => parsePartnerName('   ')).toThrow();
    expect(() => parsePartnerName('x'.repeat(201))).toThrow();
    expect(parsePartnerName('  Acme Shop ')).toBe('Acme Shop');
  });
});
