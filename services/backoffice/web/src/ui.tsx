export { ErrorNotice, SuccessNotice, Field, dateTime } from '../../../../libs/console-web/pages/ui';

/** A new idempotency key for a form the person submits (kept while they retry the same form). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
