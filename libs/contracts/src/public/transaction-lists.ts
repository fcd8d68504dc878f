import type { PublicOperation } from './operation-parts';

/** The lists of collections and disbursements (GET /partner/v1/collections, GET /partner/v1/disbursements), cursor-paginated. */
export const transactionListOperations: readonly PublicOperation[] = [];
