import type { Redis } from 'ioredis';

/**
 * Changes refused before anyone is known (no session, an ended one, another site's request) are
 * audited like any other refusal, with the actor `unidentified` and the address. So that nobody can
 * fill a console's audit log from outside, at most `unidentifiedRefusalsPerAddressPerMinute` such
 * entries are written per address and minute; the one after them says that further refusals from
 * that address in that minute are counted, not recorded one by one. A person's refusals are never
 * capped. One counter per minute and address, under the console's Redis prefix.
 */
export const unidentifiedRefusalsPerAddressPerMinute = 30;

export type UnidentifiedRefusalRecording = { record: false } | { record: true; note: string | undefined };

export async function unidentifiedRefusalRecording(redis: Redis, keyPrefix: string, address: string, nowMs: number = Date.now()): Promise<UnidentifiedRefusalRecording> {
  const key = `${keyPrefix}unidentified-refusals:${Math.floor(nowMs / 60_000)}:${address}`;
  const [[, count]] = (await redis.multi().incr(key).expire(key, 120).exec()) as [[Error | null, number]];
  if (count > unidentifiedRefusalsPerAddressPerMinute + 1) return { record: false };
  const capped = count === unidentifiedRefusalsPerAddressPerMinute + 1;
  return { record: true, note: capped ? `further refusals from this address in this minute are not recorded one by one (more than ${unidentifiedRefusalsPerAddressPerMinute})` : undefined };
}
