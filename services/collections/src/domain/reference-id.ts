import { randomBytes } from 'node:crypto';

/**
 * A collection's public id: PKC-<digits>-<UPPERCASE HEX>. The digits are the creation time in
 * milliseconds (readable, sortable in support tickets); the hex part is 16 random bytes, so an id
 * cannot be guessed from another one (128 bits; ownership is still checked on every read).
 */
export const referenceIdPattern = /^PKC-\d{1,20}-[0-9A-F]{8,64}$/;

export function newReferenceId(now: Date = new Date(), random: (size: number) => Buffer = randomBytes): string {
  return `PKC-${now.getTime()}-${random(16).toString('hex').toUpperCase()}`;
}

export function isReferenceId(value: unknown): value is string {
  return typeof value === 'string' && referenceIdPattern.test(value);
}
