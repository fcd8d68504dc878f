// The statuses each list of the Transactions page can be filtered by: the API's own (libs/contracts;
// services/dashboard/test/unit/transaction-statuses.test.ts checks they are the same), kept here so the pages'
// bundle does not carry the contract's schemas.

export const transactionStatuses = {
  collections: ['pending_approval', 'completed', 'declined', 'expired', 'failed', 'cancelled'],
  disbursements: ['pending', 'completed', 'failed'],
  refunds: ['processing', 'completed', 'failed'],
  deliveries: ['pending', 'delivering', 'delivered', 'failed', 'skipped'],
} as const satisfies Record<string, readonly string[]>;
