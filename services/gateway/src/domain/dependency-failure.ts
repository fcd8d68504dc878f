import { PkcError, isPkcError } from '@pwa/errors';

/** A dependency failure becomes PKC_7003 (the cause is kept for the log); PKC errors pass unchanged. */
export async function unlessUnavailable<T>(pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (isPkcError(error)) throw error;
    throw new PkcError('PKC_7003', undefined, { cause: error });
  }
}
