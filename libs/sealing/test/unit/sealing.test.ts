import { randomBytes } from 'node:crypto';
import { open, openFromBase64, parseSealingKey, seal, sealToBase64 } from '../../src';

describe('sealing', () => {
  const key = randomBytes(32);

  it('when a secret is sealed and opened with the same key and associated data, then it comes back', () => {
    expect(openFromBase64(sealToBase64('whsec_abc', key, 'partner:1'), key, 'partner:1')).toBe('whsec_abc');
  });

  it('when the key, the associated data or a byte differs, then opening fails', () => {
    const sealed = seal(Buffer.from('whsec_abc'), key, 'partner:1');
    expect(() => open(sealed, randomBytes(32), 'partner:1')).toThrow();
    expect(() => open(sealed, key, 'partner:2')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(() => open(tampered, key, 'partner:1')).toThrow();
  });

  it('when a sealing key is not 32 bytes, then it is refused', () => {
    expect(() => parseSealingKey(randomBytes(16).toString('base64'))).toThrow('32 bytes');
    expect(parseSealingKey(key.toString('base64'))).toEqual(key);
  });
});
