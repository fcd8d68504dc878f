import { generateWebhookSecret, parseOverlapHours, webhookSecretAssociatedData } from '../../src/domain/webhook-secret';

describe('webhook secrets', () => {
  it('when a secret is generated, then it is whsec_ followed by base64 of 32 random bytes, with its own id', () => {
    const first = generateWebhookSecret();
    const second = generateWebhookSecret();
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(first.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(first.secret).not.toBe(second.secret);
    expect(first.secretId).not.toBe(second.secretId);
  });

  it('when the associated data is built, then it is partnerId:secretId', () => {
    expect(webhookSecretAssociatedData('p-1', 's-1')).toBe('p-1:s-1');
  });

  it.each([
    ['0', 0],
    ['24', 24],
    [' 720 ', 720],
  ])('when the overlap is "%s", then it is %d hours', (text, hours) => {
    expect(parseOverlapHours(text)).toBe(hours);
  });

  it.each(['-1', '721', '1.5', 'abc', '', '1e3'])('when the overlap is "%s", then it is refused', (text) => {
    expect(() => parseOverlapHours(text)).toThrow('whole number of hours');
  });
});
