import type { Request, Response } from 'express';
import { appendAuditEntry } from '@pwa/audit';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { anonymous } from '../use-cases/operator-sign-in';
import { originOf } from './console-request';

/**
 * Changes refused before anyone is known (no session, an ended one, a personal token that is
 * unknown, revoked or expired, a pre-session call from another site) are audited like any other
 * refusal, with the actor `unidentified` and the address. So that nobody can fill the audit log
 * from outside, at most `entriesPerAddressPerMinute` such entries are written per address and
 * minute; the one after them says that further refusals from that address in that minute are
 * counted, not recorded one by one. A person's refusals are never capped.
 */
export const entriesPerAddressPerMinute = 30;

/** What the refusal says happened (never a secret: the token or cookie is not named). */
export type UnidentifiedRefusalReason =
  | 'no session'
  | 'the session has ended'
  | 'the personal token is unknown, revoked or expired'
  | 'a personal token cannot be used here'
  | 'the request came from another site';

/** Under the service's Redis prefix (the sessions'), one counter per minute and address. */
const counterKey = (keyPrefix: string, address: string, minute: number): string => `${keyPrefix}unidentified-refusals:${minute}:${address}`;

/** Records one refused change by an unknown caller (within the cap); resolves once written. */
export async function auditUnidentifiedRefusal(deps: PeopleDependencies, req: Request, res: Response, reason: UnidentifiedRefusalReason): Promise<void> {
  const origin = originOf(req, res);
  const minute = Math.floor(Date.now() / 60_000);
  const key = counterKey(deps.sessions.keyPrefix, origin.address, minute);
  const [[, count]] = (await deps.redis.multi().incr(key).expire(key, 120).exec()) as [[Error | null, number]];
  if (count > entriesPerAddressPerMinute + 1) return;
  const capped = count === entriesPerAddressPerMinute + 1;
  await appendAuditEntry(deps.pool, {
    actor: anonymous,
    action: 'console.change_refused',
    target: { kind: 'endpoint', id: `${req.method} ${req.path}`.slice(0, 200) },
    outcome: 'refused',
    reason: capped ? `${reason}; further refusals from this address in this minute are not recorded one by one (more than ${entriesPerAddressPerMinute})` : reason,
    ...origin,
  });
}
