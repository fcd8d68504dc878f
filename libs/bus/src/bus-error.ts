/** Codes callers can match on (never on instanceof, which breaks across package copies). */
export type BusErrorCode =
  | 'BUS_NOT_CONNECTED'
  /** The broker refused the message (a negative confirm). */
  | 'BUS_PUBLISH_NOT_CONFIRMED'
  /** No confirm within the bound: the broker or the network is slow or blocked, not the message. */
  | 'BUS_PUBLISH_CONFIRM_TIMEOUT'
  | 'BUS_CLOSED'
  | 'BUS_INVALID_SUBSCRIPTION';

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
