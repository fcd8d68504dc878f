import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SigningKeySet } from '../../src/partners/signing-keys';

function publicKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey;
}

function keySetWith(published: Map<string, KeyObject>, fetchFails = { value: false }) {
  const clock = { nowMs: 1_000_000 };
  const fetchKeys = jest.fn(() => (fetchFails.value ? Promise.reject(new Error('auth down')) : Promise.resolve(new Map(published))));
  const keySet = new SigningKeySet({
    fetchKeys,
    refreshMinIntervalMs: 5_000,
    maxAgeMs: 600_000,
    nowMs: () => clock.nowMs,
    onBackgroundRefreshFailed: () => undefined,
  });
  return { keySet, fetchKeys, clock };
}

describe('SigningKeySet', () => {
  test('when a known key id is asked for, then it is served from memory', async () => {
    const key = publicKey();
    const { keySet, fetchKeys } = keySetWith(new Map([['a', key]]));
    await keySet.refresh();

    expect(await keySet.keyFor('a')).toBe(key);
    expect(await keySet.keyFor('a')).toBe(key);
    expect(fetchKeys).toHaveBeenCalledTimes(1);
  });

  test('when unknown key ids arrive in a burst, then auth is asked once per interval', async () => {
    const published = new Map([['a', publicKey()]]);
    const { keySet, fetchKeys, clock } = keySetWith(published);
    await keySet.refresh();

    expect(await keySet.keyFor('random-1')).toBeUndefined();
    expect(await keySet.keyFor('random-2')).toBeUndefined();
    expect(fetchKeys).toHaveBeenCalledTimes(1);
    clock.nowMs += 5_000;
    expect(await keySet.keyFor('random-3')).toBeUndefined();
    expect(fetchKeys).toHaveBeenCalledTimes(2);
  });

  test('when auth rotates in a new key, then the first token with its kid causes a refetch that finds it', async () => {
    const published = new Map([['a', publicKey()]]);
    const { keySet, clock } = keySetWith(published);
    await keySet.refresh();
    const rotated = publicKey();
    published.set('b', rotated);
    clock.nowMs += 5_000;

    expect(await keySet.keyFor('b')).toBe(rotated);
  });

  test('when the keys never loaded because auth was down, then each request tries again and fails loudly', async () => {
    const fetchFails = { value: true };
    const key = publicKey();
    const { keySet, fetchKeys } = keySetWith(new Map([['a', key]]), fetchFails);
    await expect(keySet.refresh()).rejects.toThrow('auth down');

    await expect(keySet.keyFor('a')).rejects.toThrow('auth down');
    fetchFails.value = false;
    expect(await keySet.keyFor('a')).toBe(key);
    expect(fetchKeys).toHaveBeenCalledTimes(3);
  });

  test('when concurrent requests need a refetch, then they share one fetch', async () => {
    const { keySet, fetchKeys } = keySetWith(new Map([['a', publicKey()]]));

    await Promise.all([keySet.keyFor('a'), keySet.keyFor('a'), keySet.keyFor('x')]);

    expect(fetchKeys).toHaveBeenCalledTimes(1);
  });

  test('when the keys are older than their maximum age, then a known key is served while they refresh in the background', async () => {
    const key = publicKey();
    const { keySet, fetchKeys, clock } = keySetWith(new Map([['a', key]]));
    await keySet.refresh();
    clock.nowMs += 600_000;

    expect(await keySet.keyFor('a')).toBe(key);
    expect(fetchKeys).toHaveBeenCalledTimes(2);
  });
});
