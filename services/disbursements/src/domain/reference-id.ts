import { randomBytes } from 'node:crypto';

/**
 * The partner's handle of a disbursement: PKD-<milliseconds since the epoch>-<24 uppercase hex>.
 * The digits make references sort roughly by creation; the 96 random bits make them unguessable,
 * so knowing one reference tells nothing about another partner's.
 */
export const referenceIdPattern = /^PKD-\d{13,16}-[0-9A-F]{24}$/;

const randomBytesCount = 12;

export function newReferenceId(now: Date = new Date(), random: Buffer = randomBytes(randomBytesCount)): string {
  if (random.length !== randomBytesCount) throw new Error(`a reference id needs ${randomBytesCount} random bytes`);
  return `PKD-${String(now.getTime()).padStart(13, '0')}-${random.toString('hex').toUpperCase()}`;
}

export function isReferenceId(text: string): boolean {
  return referenceIdPattern.test(text);
}
