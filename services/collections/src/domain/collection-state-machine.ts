import type { PkcCode } from '@pwa/errors';

/**
 * The collection state machine (spec "Collection request statuses"), one conditional UPDATE per
 * arrow in src/store/collection-store.ts:
 *
 *                      user approves, before expiresAt
 *   (confirm) ──► pending_approval ─────────────────────────► processing ──► completed
 *                    │   │   │                                  │   (wallet posted: collection.completed)
 *                    │   │   │                                  │
 *                    │   │   │                                  └──────────► failed
 *                    │   │   │                     (posting refused, or cancelled after the retries)
 *                    │   │   └── user declines, before expiresAt ──────────► declined
 *                    │   └────── expiresAt passed (sweeper, or on touch) ───► expired
 *                    └────────── sandbox "expire" (partner or test phone) ──► expired
 *
 * processing is internal: the user approved and the wallet posting is under way (or waits for the
 * recovery worker when the wallet could not be reached). Partners see it as pending_approval.
 * completed, declined, expired and failed are final.
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

/**
 * Why a user action (approve, decline, sandbox expire) found nothing to change, read after the
 * conditional update refused: an expired collection, or a pending one whose window has passed and
 * that the sweeper has not reached yet, is PKC_6003 (410); one already approved, declined,
 * completed or failed is PKC_6004 (409). `expireNow` says the caller must expire it first.
 */
export function diagnoseRefusedAction(status: CollectionStatus, expiresAt: Date, now: Date): { code: PkcCode; expireNow: boolean } {
  switch (status) {
    case 'expired':
      return { code: 'PKC_6003', expireNow: false };
    case 'pending_approval':
      // Still pending yet refused: only the window can be the reason.
      return isWithinWindow(expiresAt, now) ? { code: 'PKC_6004', expireNow: false } : { code: 'PKC_6003', expireNow: true };
    case 'processing':
    case 'completed':
    case 'declined':
    case 'failed':
    case 'cancelled':
      return { code: 'PKC_6004', expireNow: false };
  }
}

/** What the partner's status endpoint shows: processing is internal and reads as pending_approval. */
export function partnerVisibleStatus(status: CollectionStatus): Exclude<CollectionStatus, 'processing'> {
  return status === 'processing' ? 'pending_approval' : status;
}
