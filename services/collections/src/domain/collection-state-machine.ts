/**
 * The collection state machine (spec "Collection request statuses"), one conditional UPDATE per
 * arrow in src/store/collection-store.ts:
 *
 *                      user approves, before expiresAt
 *   (confirm) ──► pending_approval ─────────────────────────► processing ──► completed
 *                    │  │  │  │                                 │   (wallet posted: collection.completed)
 *                    │  │  │  │                                 │
 *                    │  │  │  │                                 └──────────► failed
 *                    │  │  │  │                    (posting refused, or cancelled after the retries)
 *                    │  │  │  └── user declines, before expiresAt ─────────► declined
 *                    │  │  └───── expiresAt passed (sweeper, or on touch) ──► expired
 *                    │  └──────── sandbox "expire" (partner or test phone) ─► expired
 *                    └─────────── partner cancels, before expiresAt ────────► cancelled
 *
 * processing is internal: the user approved and the wallet posting is under way (or waits for the
 * recovery worker when the wallet could not be reached). Partners see it as pending_approval.
 * completed, declined, expired, failed and cancelled are final.
 *
 * The actions on a pending collection (approve, decline, expire, cancel) are each one UPDATE whose
 * WHERE names the source state, the window where it applies and the actor; only when it changes
 * nothing is the row read, once, with the database's clock, and diagnoseRefusedAction says why.
 */
export const collectionStatuses = ['pending_approval', 'processing', 'completed', 'declined', 'expired', 'failed', 'cancelled'] as const;
export type CollectionStatus = (typeof collectionStatuses)[number];

/** The statuses under which the partner's externalId stays taken (the partial unique index says the same). */
export const externalIdHoldingStatuses: readonly CollectionStatus[] = ['pending_approval', 'processing', 'completed'];

export type CollectionAction = 'approve' | 'decline' | 'expire' | 'cancel' | 'post' | 'fail';

const transitions: Record<CollectionAction, { from: CollectionStatus; to: CollectionStatus }> = {
  approve: { from: 'pending_approval', to: 'processing' },
  decline: { from: 'pending_approval', to: 'declined' },
  expire: { from: 'pending_approval', to: 'expired' },
  cancel: { from: 'pending_approval', to: 'cancelled' },
  post: { from: 'processing', to: 'completed' },
  fail: { from: 'processing', to: 'failed' },
};

export function isCollectionStatus(value: unknown): value is CollectionStatus {
  return typeof value === 'string' && (collectionStatuses as readonly string[]).includes(value);
}

export function isFinal(status: CollectionStatus): boolean {
  return status === 'completed' || status === 'declined' || status === 'expired' || status === 'failed' || status === 'cancelled';
}

/** The status an action leads to from a status, or undefined when the machine has no such arrow. */
export function nextStatus(from: CollectionStatus, action: CollectionAction): CollectionStatus | undefined {
  const transition = transitions[action];
  return transition.from === from ? transition.to : undefined;
}

/** Whether a user's (or the sandbox's) action on a pending collection may still happen at this instant. */
export function isWithinWindow(expiresAt: Date, now: Date): boolean {
  return now.getTime() < expiresAt.getTime();
}

/** Who acts on a pending collection: the user in the app (optionally naming their phone), or a partner. */
export type CollectionActor = { kind: 'user'; phone?: string } | { kind: 'partner'; partnerId: string };

/** Whether the actor may act on the collection: its partner, or its user (any user when no phone is named). */
export function isActorOf(collection: { partnerId: string; phone: string }, actor: CollectionActor): boolean {
  return actor.kind === 'partner' ? collection.partnerId === actor.partnerId : actor.phone === undefined || actor.phone === collection.phone;
}

/** What one read after a refused action sees: the row (undefined when there is none) and the database's now(). */
export interface RefusedActionFacts {
  collection: { status: CollectionStatus; expiresAt: Date; partnerId: string; phone: string } | undefined;
  now: Date;
}

/**
 * Why an action on a pending collection (approve, decline, expire, cancel) changed nothing:
 * - no such collection: 404 PKC_6002;
 * - another partner's, or another user's: 403 PKC_6005 (before anything about its state leaks);
 * - expired, or still pending past its window (the sweeper has not reached it): 410 PKC_6003, and
 *   `expireNow` says the caller expires it first;
 * - approved (processing), completed, declined, failed or cancelled: 409 PKC_6004, with the status.
 * A pending collection within its window cannot have refused an UPDATE that named its actor (the
 * row would have matched); if the clocks ever disagree it is a conflict (PKC_6004) to retry.
 */
export type RefusedActionDiagnosis =
  | { code: 'PKC_6002' }
  | { code: 'PKC_6005' }
  | { code: 'PKC_6003'; expireNow: boolean }
  | { code: 'PKC_6004'; status: CollectionStatus };

export function diagnoseRefusedAction(facts: RefusedActionFacts, actor: CollectionActor): RefusedActionDiagnosis {
  const { collection, now } = facts;
  if (collection === undefined) return { code: 'PKC_6002' };
  if (!isActorOf(collection, actor)) return { code: 'PKC_6005' };
  switch (collection.status) {
    case 'expired':
      return { code: 'PKC_6003', expireNow: false };
    case 'pending_approval':
      return isWithinWindow(collection.expiresAt, now) ? { code: 'PKC_6004', status: collection.status } : { code: 'PKC_6003', expireNow: true };
    case 'processing':
    case 'completed':
    case 'declined':
    case 'failed':
    case 'cancelled':
      return { code: 'PKC_6004', status: collection.status };
  }
}

/** How a refusal names the status the collection is in: processing is an approval whose payment is under way. */
export function refusedStatusWording(status: CollectionStatus): string {
  return status === 'processing' ? 'approved (its payment is under way)' : status;
}

/** What the partner's status endpoint shows: processing is internal and reads as pending_approval. */
export function partnerVisibleStatus(status: CollectionStatus): Exclude<CollectionStatus, 'processing'> {
  return status === 'processing' ? 'pending_approval' : status;
}
