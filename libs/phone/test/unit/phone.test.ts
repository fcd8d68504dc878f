import fc from 'fast-check';
import { normaliseLiberianPhone } from '../../src';

describe('normaliseLiberianPhone', () => {
  it.each([
    ['0770123456', '+231770123456'],
    ['+231770123456', '+231770123456'],
    ['0886123456', '+231886123456'],
    ['+231555123456', '+231555123456'],
    ['077 012 3456', '+231770123456'],
    ['+231 88-612-3456', '+231886123456'],
  ])('when the number is %s, then it is %s', (input, expected) => {
    expect(normaliseLiberianPhone(input)).toBe(expected);
  });

  it.each([
    ['no prefix', '770123456'],
    ['country code without plus', '231770123456'],
    ['international prefix 00', '00231770123456'],
    ['too short', '077012345'],
    ['too long', '07701234567'],
    ['landline range', '0221234567'],
    ['unknown mobile range', '0660123456'],
    ['another country', '+233770123456'],
    ['letters', '07701234ab'],
    ['empty', ''],
    ['a number, not a string', 770123456],
    ['plus inside', '0770+123456'],
  ])('when the input is %s, then it is refused', (_label, input) => {
    expect(normaliseLiberianPhone(input)).toBeUndefined();
  });

  it('when any valid number is written in either form, then both forms give the same +231 number', () => {
    fc.assert(
      fc.property(fc.constantFrom('77', '88', '55'), fc.stringMatching(/^\d{7}$/), (prefix, rest) => {
        const expected = `+231${prefix}${rest}`;
        expect(normaliseLiberianPhone(`0${prefix}${rest}`)).toBe(expected);
        expect(normaliseLiberianPhone(expected)).toBe(expected);
      }),
    );
  });
});
