/** ioredis's own messages when a command cannot reach a usable Redis (they carry no code). */
const unavailableMessages = new Set([
  // The connection is down and, the offline queue being off (connectRedis), the command is refused at once.
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Connection is closed.',
  // Redis did not answer within REDIS_COMMAND_TIMEOUT_MS.
  'Command timed out',
]);

/**
 * Redis's answers while a failover or a restart is under way: a demoted primary refusing a write,
 * a server still loading its data, a replica whose primary is gone.
 */
const unavailableReplyPrefixes = ['READONLY ', 'LOADING ', 'MASTERDOWN '];
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * Whether a Redis command failed because Redis cannot be used just now (down, unreachable, slow, or
 * in the middle of a Sentinel failover), not because of the command: a service answers such a
 * request 503 (retry later), as for its database, rather than 500 (see docs/redis-topologies.md).
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  if (unavailableMessages.has(error.message)) return true;
  if (unavailableReplyPrefixes.some((prefix) => error.message.startsWith(prefix))) return true;
  const { code } = error as { code?: unknown };
  return typeof code === 'string' && unavailableCodes.has(code);
}
