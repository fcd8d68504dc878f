import { isReferenceId, newReferenceId, referenceIdPattern } from '../../src/domain/reference-id';

describe('reference ids', () => {
  test('when one is made, then it reads PKD-<milliseconds>-<24 uppercase hex> from the time and the random bytes', () => {
    const id = newReferenceId(new Date('2024-05-01T00:00:00.000Z'), Buffer.from('00112233445566778899aabb', 'hex'));
    expect(id).toBe('PKD-1714521600000-00112233445566778899AABB');
    expect(isReferenceId(id)).toBe(true);
  });

  test('when many are made at the same instant, then all differ and match the pattern', () => {
    const now = new Date();
    const ids = new Set(Array.from({ length: 10_000 }, () => newReferenceId(now)));
    expect(ids.size).toBe(10_000);
    for (const id of ids) expect(id).toMatch(referenceIdPattern);
  });

  test.each(['PKC-1714521600000-00112233445566778899AABB', 'PKD-1714521600000-00112233445566778899aabb', 'PKD-1-AB', '', 'PKD-1714521600000-00112233445566778899AABB '])(
    'when the text is %j, then it is not a reference id',
    (text) => expect(isReferenceId(text)).toBe(false),
  );

  test('when the random part is not 12 bytes, then making one fails loudly', () => {
    expect(() => newReferenceId(new Date(), Buffer.alloc(4))).toThrow('12 random bytes');
  });
});
