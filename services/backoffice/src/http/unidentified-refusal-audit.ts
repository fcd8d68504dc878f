import type { Request, Response } from 'express';
import { appendAuditEntry } from '@pwa/audit';
import { originOf, unidentifiedRefusalRecording } from '@pwa/web-auth';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { anonymous } from '../use-cases/operator-sign-in';

/**
 * Changes refused before anyone is known (no session, an ended one, a personal token that is
 * unknown, revoked or expired, a pre-session call from another site) are audited like any other
 * refusal, capped per address and minute (libs/web-auth unidentified-refusal-cap.ts).
 */

/** What the refusal says happened (never a secret: the token or cookie is not named). */
export type UnidentifiedRefusalReason =
  | 'no session'
  | 'the session has ended'
  | 'the personal token is unknown, revoked or expired'
  | 'a personal token cannot be used here'
  | 'the request came from another site';

/** Records one refused change by an unknown caller (within the cap); resolves once written. */
export async function auditUnidentifiedRefusal(deps: PeopleDependencies, req: Request, res: Response, reason: UnidentifiedRefusalReason): Promise<void> {
  const origin = originOf(req, res);
  const recording = await unidentifiedRefusalRecording(deps.redis, deps.sessions.keyPrefix, origin.address);
  if (!recording.record) return;
  await appendAuditEntry(deps.pool, {
    actor: anonymous,
    action: 'console.change_refused',
    target: { kind: 'endpoint', id: `${req.method} ${req.path}`.slice(0, 200) },
    outcome: 'refused',
    reason: recording.note === undefined ? reason : `${reason}; ${recording.note}`,
    ...origin,
  });
}
