import { AsyncLocalStorage } from 'node:async_hooks';

/** What the handling of one delivered message found out about it, beyond succeeding or failing. */
export interface DeliveryNotes {
  duplicate: boolean;
}

const notesOfDelivery = new AsyncLocalStorage<DeliveryNotes>();

/** Runs a message's handler with a record the handler's processOnce can write to. */
export function runWithDeliveryNotes<T>(notes: DeliveryNotes, fn: () => T): T {
  return notesOfDelivery.run(notes, fn);
}

/**
 * Called by processOnce when the event was processed before: the consumer then counts the message
 * as a duplicate rather than as handled, without every handler having to report it.
 */
export function noteDuplicateDelivery(): void {
  const notes = notesOfDelivery.getStore();
  if (notes) notes.duplicate = true;
}
