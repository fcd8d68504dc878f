import { randomUUID } from 'node:crypto';
import type { PartnerRecord } from '../../src/domain/partner-access';
import { PartnerCache } from '../../src/partners/partner-cache';

function record(partnerId: string, status: PartnerRecord['status'] = 'active'): PartnerRecord {
  return { partnerId, clientId: randomUUID(), status, permissions: ['collection'], rateLimitPerMinute: null };
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

function cacheWith(load: (partnerId: string) => Promise<PartnerRecord | undefined>, maxEntries = 100) {
  const clock = { nowMs: 0 };
  const loader = jest.fn(load);
  const cache = new PartnerCache({ load: loader, ttlMs: 30_000, maxEntries, nowMs: () => clock.nowMs });
  return { cache, loader, clock };
}

describe('PartnerCache', () => {
  test('when a partner is asked for twice within the TTL, then auth is asked once', async () => {
    const partnerId = randomUUID();
    const { cache, loader } = cacheWith((id) => Promise.resolve(record(id)));

    await cache.get(partnerId);
    await cache.get(partnerId);

    expect(loader).toHaveBeenCalledTimes(1);
  });

  test('when the TTL has passed, then auth is asked again', async () => {
    const partnerId = randomUUID();
    const { cache, loader, clock } = cacheWith((id) => Promise.resolve(record(id)));
    await cache.get(partnerId);
    clock.nowMs += 30_000;

    await cache.get(partnerId);

    expect(loader).toHaveBeenCalledTimes(2);
  });

  test('when the TTL is shortened (the broker went away), then an entry stored earlier is older than it and auth is asked again', async () => {
    const partnerId = randomUUID();
    const clock = { nowMs: 0 };
    let ttlMs = 30_000;
    const loader = jest.fn((id: string) => Promise.resolve(record(id)));
    const cache = new PartnerCache({ load: loader, ttlMs: () => ttlMs, maxEntries: 100, nowMs: () => clock.nowMs });
    await cache.get(partnerId);
    clock.nowMs += 6_000;
    await cache.get(partnerId);
    expect(loader).toHaveBeenCalledTimes(1);

    ttlMs = 5_000;
    await cache.get(partnerId);

    expect(loader).toHaveBeenCalledTimes(2);
  });

  test('when a partner event invalidates an entry, then the next request reads the new status', async () => {
    const partnerId = randomUUID();
    let status: PartnerRecord['status'] = 'active';
    const { cache } = cacheWith((id) => Promise.resolve(record(id, status)));
    expect((await cache.get(partnerId))?.status).toBe('active');
    status = 'suspended';

    cache.invalidate(partnerId);

    expect((await cache.get(partnerId))?.status).toBe('suspended');
  });

  test('when an invalidation arrives while a load is under way, then the older answer is not kept', async () => {
    const partnerId = randomUUID();
    const firstLoad = deferred<PartnerRecord | undefined>();
    let calls = 0;
    const { cache } = cacheWith((id) => {
      calls += 1;
      return calls === 1 ? firstLoad.promise : Promise.resolve(record(id, 'suspended'));
    });
    const pending = cache.get(partnerId);
    cache.invalidate(partnerId);
    firstLoad.resolve(record(partnerId, 'active'));
    await pending;

    expect((await cache.get(partnerId))?.status).toBe('suspended');
  });

  test('when many requests miss at once, then they share one load', async () => {
    const partnerId = randomUUID();
    const { cache, loader } = cacheWith((id) => Promise.resolve(record(id)));

    await Promise.all([cache.get(partnerId), cache.get(partnerId), cache.get(partnerId)]);

    expect(loader).toHaveBeenCalledTimes(1);
  });

  test('when auth does not know a partner, then that answer is cached too', async () => {
    const { cache, loader } = cacheWith(() => Promise.resolve(undefined));
    const partnerId = randomUUID();

    expect(await cache.get(partnerId)).toBeUndefined();
    expect(await cache.get(partnerId)).toBeUndefined();
    expect(loader).toHaveBeenCalledTimes(1);
  });

  test('when a load fails, then nothing is cached and the next request tries again', async () => {
    let fail = true;
    const { cache, loader } = cacheWith((id) => (fail ? Promise.reject(new Error('auth down')) : Promise.resolve(record(id))));
    const partnerId = randomUUID();

    await expect(cache.get(partnerId)).rejects.toThrow('auth down');
    fail = false;

    expect(await cache.get(partnerId)).toMatchObject({ partnerId });
    expect(loader).toHaveBeenCalledTimes(2);
  });

  test('when the cache is full, then the oldest entry makes room', async () => {
    const { cache } = cacheWith((id) => Promise.resolve(record(id)), 2);

    for (const id of [randomUUID(), randomUUID(), randomUUID()]) await cache.get(id);

    expect(cache.size).toBe(2);
  });

  test('when the cache is cleared (after a bus reconnect), then every partner is read again', async () => {
    const { cache, loader } = cacheWith((id) => Promise.resolve(record(id)));
    const partnerId = randomUUID();
    await cache.get(partnerId);

    cache.clear();
    await cache.get(partnerId);

    expect(loader).toHaveBeenCalledTimes(2);
  });
});
