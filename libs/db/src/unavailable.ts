/**
 * Whether an error means "the database cannot be used right now" (the server restarting, shutting
 * down, refusing connections or out of connection slots; the connection lost), as opposed to an
 * error of the statement. A request that meets one is answered 503 PKC_7003, like any other
 * dependency that is away, instead of 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // SQLSTATE class 08 (connection exception), 57P01-57P03 (admin or crash shutdown, cannot connect
    // now), 53300 (too many connections); and the socket errors pg passes on as they are.
    if (code.startsWith('08') || unavailableCodes.has(code)) return true;
  }
  return typeof message === 'string' && unavailableMessages.some((pattern) => pattern.test(message));
}

const unavailableCodes = new Set(['57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/** The messages of node-postgres's own connection errors, which carry no code. */
const unavailableMessages = [/^Connection terminated/, /^timeout exceeded when trying to connect$/, /^Client has encountered a connection error and is not queryable$/];
