/**
 * The PKC error catalogue: every code of the spec with its HTTP status and a default message.
 * This is public API. Partners act on `code`; messages may change. The catalogue test keeps
 * this table, the spec and the partner guide in sync.
 */
export const errorCatalogue = {
  // Authentication (PKC_1XXX)
  PKC_1001: { httpStatus: 401, message: 'client_id or client_secret missing or malformed' },
  PKC_1002: { httpStatus: 401, message: 'Credentials match no partner account' },
  PKC_1003: { httpStatus: 401, message: 'Access token expired; request a new token' },
  PKC_1004: { httpStatus: 401, message: 'Access token malformed, tampered with, or issued elsewhere' },
  PKC_1005: { httpStatus: 401, message: 'Authorization header missing or not of the form Bearer <token>' },
  PKC_1006: { httpStatus: 403, message: 'Partner account suspended' },
  PKC_1007: { httpStatus: 403, message: 'Partner account pending activation' },
  PKC_1008: { httpStatus: 403, message: 'Partner lacks permission for this operation' },
  PKC_1009: { httpStatus: 403, message: 'Partner account not active' },
  // Request validation (PKC_2XXX)
  PKC_2001: { httpStatus: 400, message: 'Invalid Liberian phone number' },
  PKC_2002: { httpStatus: 400, message: 'Amount must be a positive number greater than zero' },
  PKC_2003: { httpStatus: 400, message: 'Amount below the per-transaction minimum (1 USD or 50 LRD)' },
  PKC_2004: { httpStatus: 400, message: 'Amount above the per-transaction maximum (10,000 USD or 1,850,000 LRD)' },
  PKC_2005: { httpStatus: 400, message: 'Currency must be LRD or USD' },
  PKC_2006: { httpStatus: 400, message: 'externalId longer than 100 characters' },
  PKC_2007: { httpStatus: 400, message: 'note longer than 200 characters' },
  PKC_2008: { httpStatus: 400, message: 'One or more required body fields missing' },
  PKC_2009: { httpStatus: 400, message: 'quoteId is not a valid UUID' },
  PKC_2010: { httpStatus: 400, message: 'Currency not supported for this operation' },
  // User / account (PKC_3XXX)
  PKC_3001: { httpStatus: 404, message: 'No account for this phone number' },
  PKC_3002: { httpStatus: 403, message: 'User account not active (suspended or closed)' },
  PKC_3003: { httpStatus: 404, message: 'User has no active wallet in the requested currency' },
  PKC_3004: { httpStatus: 403, message: "User's wallet is frozen" },
  PKC_3005: { httpStatus: 403, message: "User's KYC is not approved" },
  // Balance / limits (PKC_4XXX)
  PKC_4001: { httpStatus: 400, message: 'User balance insufficient for amount plus fee' },
  PKC_4002: { httpStatus: 400, message: 'Partner balance insufficient for amount plus fee' },
  PKC_4003: { httpStatus: 400, message: "Amount exceeds the user's per-transaction limit for their tier" },
  PKC_4004: { httpStatus: 400, message: "User's daily limit reached" },
  PKC_4005: { httpStatus: 400, message: "User's monthly limit reached" },
  PKC_4006: { httpStatus: 400, message: 'Limit exceeded; retry after the limit period resets' },
  PKC_4007: { httpStatus: 400, message: "User's weekly limit reached" },
  PKC_4008: { httpStatus: 400, message: "User's yearly limit reached" },
  PKC_4009: { httpStatus: 400, message: 'User reached the maximum number of partner transactions per day' },
  PKC_4010: { httpStatus: 429, message: 'User reached the maximum number of partner transactions per hour' },
  PKC_4011: { httpStatus: 403, message: "User's account limits are not configured" },
  PKC_4012: { httpStatus: 403, message: 'No limit configuration for this transaction type and currency' },
  // Quote (PKC_5XXX)
  PKC_5001: { httpStatus: 400, message: 'Quote not found or expired' },
  PKC_5002: { httpStatus: 400, message: 'Quote already used' },
  PKC_5003: { httpStatus: 400, message: 'Quote type does not match this endpoint' },
  PKC_5004: { httpStatus: 403, message: 'Quote belongs to another partner' },
  // An addition to the spec (issue 29): a bulk quote none of whose items passed its checks. A
  // business outcome (each item has its own reason, any code), not a malformed body.
  PKC_5005: { httpStatus: 400, message: 'No item of the bulk is valid; nothing was quoted' },
  // Transaction (PKC_6XXX)
  PKC_6001: { httpStatus: 409, message: 'externalId already used for a completed or in-progress transaction' },
  PKC_6002: { httpStatus: 404, message: 'Not found for this referenceId' },
  PKC_6003: { httpStatus: 410, message: 'Collection request expired; no funds moved' },
  PKC_6004: { httpStatus: 409, message: 'Collection already approved or declined; it cannot be changed' },
  PKC_6005: { httpStatus: 403, message: 'Not authorized for this action on this resource' },
  // An addition to the spec (issue 19): a refund larger than what is left to refund of its collection.
  PKC_6006: { httpStatus: 409, message: 'Refund amount exceeds what is left to refund on this collection' },
  // System / rate (PKC_7XXX)
  PKC_7001: { httpStatus: 429, message: 'Rate limit exceeded; wait and retry with exponential backoff' },
  PKC_7002: { httpStatus: 500, message: 'Internal error; retry' },
  PKC_7003: { httpStatus: 503, message: 'Service temporarily unavailable; nothing was created' },
  PKC_7004: { httpStatus: 504, message: 'Transfer exceeded the 25-second processing budget; nothing was posted; safe to retry' },
} as const satisfies Record<string, { httpStatus: number; message: string }>;

export type PkcCode = keyof typeof errorCatalogue;

/**
 * Codes the catalogue adds to the spec's tables, each for a case the spec does not have (issue 19:
 * refunds; issue 29: a bulk quote with no valid item). The catalogue test holds them to the partner guide and the OpenAPI document like every
 * other code, and to the spec only in that the spec must not define them otherwise.
 */
export const codesAddedToTheSpec: readonly PkcCode[] = ['PKC_5005', 'PKC_6006'];

export const allPkcCodes = Object.keys(errorCatalogue) as PkcCode[];

export function isPkcCode(value: unknown): value is PkcCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(errorCatalogue, value);
}

export function httpStatusOf(code: PkcCode): number {
  return errorCatalogue[code].httpStatus;
}
