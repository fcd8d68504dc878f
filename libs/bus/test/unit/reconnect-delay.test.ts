import { reconnectDelayMs } from '../../src/reconnect-delay';

const alwaysHighest = (): number => 1;
const alwaysLowest = (): number => 0;

describe('reconnectDelayMs', () => {
  test('when reconnecting for the first time, then the delay is at most 100 ms', () => {
    expect(reconnectDelayMs(1, 5_000, alwaysHighest)).toBe(100);
    expect(reconnectDelayMs(1, 5_000, alwaysLowest)).toBe(50);
  });

  test('when attempts repeat, then the delay doubles until it reaches the cap', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => reconnectDelayMs(attempt, 5_000, alwaysHighest));
    expect(delays).toEqual([100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000]);
  });

  test('when attempts run into the thousands, then the delay stays at the cap (no overflow)', () => {
    expect(reconnectDelayMs(10_000, 5_000, alwaysHighest)).toBe(5_000);
  });

  test('when jittered, then the delay stays between half the ceiling and the ceiling', () => {
    for (let attempt = 1; attempt < 12; attempt += 1) {
      const delay = reconnectDelayMs(attempt, 2_000);
      const ceiling = Math.min(100 * 2 ** (attempt - 1), 2_000);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
  });

  test('when the cap is below the minimum, then the minimum applies', () => {
    expect(reconnectDelayMs(5, 10, alwaysHighest)).toBe(100);
  });
});
