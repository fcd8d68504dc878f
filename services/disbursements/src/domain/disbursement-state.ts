/**
 * States of a disbursement (see README.md for the diagram):
 *
 *   (none) --quote consumed, externalId free--> processing
 *   processing --wallet posted (or cancel reports it posted)--> completed
 *   processing --wallet refused (2xxx/3xxx/4xxx), or unavailable and cancelled--> failed
 *   processing --budget ran out and the transfer id was cancelled--> timed_out
 *
 * completed, failed and timed_out are final. Only processing and completed hold the externalId.
 */
export const disbursementStates = ['processing', 'completed', 'failed', 'timed_out'] as const;
export type DisbursementState = (typeof disbursementStates)[number];

export type FinalState = Exclude<DisbursementState, 'processing'>;

const allowedNextStates: Record<DisbursementState, readonly DisbursementState[]> = {
  processing: ['completed', 'failed', 'timed_out'],
  completed: [],
  failed: [],
  timed_out: [],
};

export function canTransition(from: DisbursementState, to: DisbursementState): boolean {
  return allowedNextStates[from].includes(to);
}

/** An externalId stays taken while its disbursement is processing or completed (the spec's idempotency rule 1). */
export function holdsExternalId(state: DisbursementState): boolean {
  return state === 'processing' || state === 'completed';
}

/** The spec's transaction statuses, the only ones a partner sees. */
export type ApiStatus = 'pending' | 'completed' | 'failed';

export function apiStatusOf(state: DisbursementState): ApiStatus {
  switch (state) {
    case 'processing':
      return 'pending';
    case 'completed':
      return 'completed';
    case 'failed':
    case 'timed_out':
      return 'failed';
  }
}
