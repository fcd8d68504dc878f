import { afterFailedAttempt, attemptsPerCycle } from '../../src/domain/retry-schedule';
import { isSuccessfulStatus } from '../../src/domain/attempt-outcome';

describe('retry schedule', () => {
  const policy = { delaysMs: [10_000, 60_000, 300_000], jitterRatio: 0.2 };

  test('when attempts fail, then three retries follow the first attempt and the fourth failure gives up', () => {
    expect(attemptsPerCycle(policy)).toBe(4);
    expect(afterFailedAttempt(policy, 1, () => 0.5)).toEqual({ kind: 'retry', delayMs: 10_000 });
    expect(afterFailedAttempt(policy, 2, () => 0.5)).toEqual({ kind: 'retry', delayMs: 60_000 });
    expect(afterFailedAttempt(policy, 3, () => 0.5)).toEqual({ kind: 'retry', delayMs: 300_000 });
    expect(afterFailedAttempt(policy, 4, () => 0.5)).toEqual({ kind: 'give_up' });
  });

  test.each([1, 2, 3])('when retry %i is jittered, then its delay stays within ±20%% of the configured one', (failedAttempt) => {
    const base = policy.delaysMs[failedAttempt - 1] ?? 0;
    const delays = [0, 0.25, 0.5, 0.75, 0.999_999, ...Array.from({ length: 200 }, Math.random)].map((draw) => {
      const after = afterFailedAttempt(policy, failedAttempt, () => draw);
      if (after.kind !== 'retry') throw new Error('expected a retry');
      return after.delayMs;
    });

    expect(Math.min(...delays)).toBeGreaterThanOrEqual(base * 0.8);
    expect(Math.max(...delays)).toBeLessThanOrEqual(base * 1.2);
    expect(afterFailedAttempt(policy, failedAttempt, () => 0)).toEqual({ kind: 'retry', delayMs: base * 0.8 });
  });

  test('when the jitter is 0, then the delays are exactly the configured ones', () => {
    expect(afterFailedAttempt({ delaysMs: [250], jitterRatio: 0 }, 1, Math.random)).toEqual({ kind: 'retry', delayMs: 250 });
  });

  test.each([
    [200, true],
    [201, true],
    [204, true],
    [299, true],
    [199, false],
    [301, false],
    [302, false],
    [400, false],
    [500, false],
  ])('when the receiver answers %i, then success is %s', (status, success) => {
    expect(isSuccessfulStatus(status)).toBe(success);
  });
});
