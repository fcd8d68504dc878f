import type { PublicOperation } from './operation-parts';

/** The partner statement from the ledger (GET /partner/v1/statement) and the events list (GET /partner/v1/events, GET /partner/v1/events/{eventId}). */
export const statementAndEventOperations: readonly PublicOperation[] = [];
