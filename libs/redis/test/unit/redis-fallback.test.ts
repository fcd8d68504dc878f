import { RedisFallback } from '../../src/redis-fallback';

function fallbackWithClock() {
  const clock = { nowMs: 1_000 };
  const events: string[] = [];
  const fallback = new RedisFallback({
    nowMs: () => clock.nowMs,
    onEnter: () => events.push('enter'),
    onLeave: (seconds) => events.push(`leave after ${seconds} s`),
  });
  return { fallback, clock, events };
}

describe('RedisFallback', () => {
  test('when Redis fails several times and then answers, then the fallback is entered once, left once, and its time counted', () => {
    const { fallback, clock, events } = fallbackWithClock();

    fallback.noteRedisFailed();
    clock.nowMs += 1_500;
    fallback.noteRedisFailed();
    const activeDuring = fallback.isActive();
    const secondsDuring = fallback.secondsTotal();
    clock.nowMs += 1_000;
    fallback.noteRedisAnswered();
    fallback.noteRedisAnswered();

    expect(events).toEqual(['enter', 'leave after 2.5 s']);
    expect(activeDuring).toBe(true);
    expect(secondsDuring).toBe(1.5);
    expect(fallback.isActive()).toBe(false);
    expect(fallback.secondsTotal()).toBe(2.5);
  });

  test('when a second outage follows, then the seconds of both are added up', () => {
    const { fallback, clock } = fallbackWithClock();
    fallback.noteRedisFailed();
    clock.nowMs += 2_000;
    fallback.noteRedisAnswered();
    clock.nowMs += 10_000;

    fallback.noteRedisFailed();
    clock.nowMs += 3_000;

    expect(fallback.secondsTotal()).toBe(5);
  });

  test('when in fallback, then Redis is tried by one call per probe interval and by every call once it answered', () => {
    const { fallback, clock } = fallbackWithClock();
    const before = fallback.shouldTryRedis();
    fallback.noteRedisFailed();

    const rightAfter = [fallback.shouldTryRedis(), fallback.shouldTryRedis()];
    clock.nowMs += 1_000;
    const afterInterval = [fallback.shouldTryRedis(), fallback.shouldTryRedis()];
    fallback.noteRedisAnswered();
    const afterAnswer = [fallback.shouldTryRedis(), fallback.shouldTryRedis()];

    expect(before).toBe(true);
    expect(rightAfter).toEqual([false, false]);
    expect(afterInterval).toEqual([true, false]);
    expect(afterAnswer).toEqual([true, true]);
  });

  test('when the gateway is stopping, then closing its own connection does not enter the fallback', () => {
    const { fallback, events } = fallbackWithClock();
    fallback.stop();

    fallback.noteRedisFailed();

    expect(events).toEqual([]);
    expect(fallback.isActive()).toBe(false);
  });
});
