import { createdAtKeyPattern, type KeysetPosition } from '@pwa/db';
import { isUuid } from '@pwa/contracts';

/**
 * A list's cursor as the console carries it: the last row's position (created_at to the
 * microsecond, id), base64url JSON, opaque to the page. A cursor that does not decode is refused,
 * never guessed at.
 */

export function encodePageCursor(position: KeysetPosition): string {
  const createdAt = typeof position.createdAt === 'string' ? position.createdAt : position.createdAt.toISOString();
  return Buffer.from(JSON.stringify({ createdAt, id: position.id }), 'utf8').toString('base64url');
}

export function decodePageCursor(cursor: string): KeysetPosition | undefined {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { createdAt?: unknown; id?: unknown };
    if (typeof value.createdAt !== 'string' || !createdAtKeyPattern.test(value.createdAt)) return undefined;
    if (!isUuid(value.id)) return undefined;
    return { createdAt: value.createdAt, id: value.id };
  } catch {
    return undefined;
  }
}
