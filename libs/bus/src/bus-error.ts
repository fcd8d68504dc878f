/** Codes callers can match on (never on instanceof, which breaks across package copies). */
export type BusErrorCode = 'BUS_NOT_CONNECTED' | 'BUS_PUBLISH_NOT_CONFIRMED' | 'BUS_CLOSED' | 'BUS_INVALID_SUBSCRIPTION';

export class BusError extends Error {
  constructor(
    readonly code: BusErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BusError';
  }
}
