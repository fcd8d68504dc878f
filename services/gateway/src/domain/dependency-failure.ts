import { PkcError, isPkcError, type ErrorFields } from '@pwa/errors';
import { isUpstreamFailure } from '@pwa/http';

/** A dependency failure becomes PKC_7003 (the cause is kept for the log); PKC errors pass unchanged. */
export async function unlessUnavailable<T>(pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (isPkcError(error)) throw error;
    throw new PkcError('PKC_7003', undefined, { cause: error });
  }
}

/**
 * An upstream that gave nothing to relay (an UpstreamFailure, whatever its reason: not reached,
 * deadline passed, connection lost, answer over the bound, breaker open) becomes 503 PKC_7003 at
 * once; the partner never waits it out. An upstream's own answer, even a 5xx, is relayed instead
 * and never arrives here. `unavailableFields` are added to the answer (the token endpoint's
 * RFC 6749 error); the cause is kept for the log. Any other error passes unchanged.
 */
export async function unlessUpstreamFailed<T>(pending: Promise<T>, unavailableFields?: ErrorFields): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (!isUpstreamFailure(error)) throw error;
    throw new PkcError('PKC_7003', undefined, { cause: error, ...(unavailableFields ? { fields: unavailableFields } : {}) });
  }
}
