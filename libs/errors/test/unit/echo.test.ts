import { echoInput, echoedInputLengthMax } from '@pwa/errors';

describe('echoInput', () => {
  test('when the input is at most 64 characters, then it is echoed as it is', () => {
    expect(echoInput('PKC-1-AB')).toBe('PKC-1-AB');
    expect(echoInput('x'.repeat(echoedInputLengthMax))).toBe('x'.repeat(echoedInputLengthMax));
    expect(echoInput('')).toBe('');
  });

  test('when a 4,000-character input is echoed, then the first 64 characters and an ellipsis are', () => {
    const echoed = echoInput(`PKC-${'A'.repeat(3_996)}`);
    expect(echoed).toBe(`PKC-${'A'.repeat(60)}…`);
    expect(Array.from(echoed)).toHaveLength(echoedInputLengthMax + 1);
  });

  test('when the cut falls inside characters outside the BMP, then no surrogate pair is split', () => {
    const echoed = echoInput('😀'.repeat(100));
    expect(echoed).toBe(`${'😀'.repeat(64)}…`);
  });

  test('when a smaller maximum is given, then it caps at that many characters', () => {
    expect(echoInput('abcdef', 3)).toBe('abc…');
  });
});
