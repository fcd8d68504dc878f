import { randomBytes } from 'node:crypto';

/**
 * The partner's handles: a disbursement's PKD-<milliseconds since the epoch>-<24 uppercase hex>,
 * and a bulk payout's PKB-… of the same form. The digits make references sort roughly by
 * creation; the 96 random bits make them unguessable, so knowing one reference tells nothing
 * about another partner's.
 */
export const referenceIdPattern = /^PKD-\d{13,16}-[0-9A-F]{24}$/;
export const bulkIdPattern = /^PKB-\d{13,16}-[0-9A-F]{24}$/;

const randomBytesCount = 12;

function handle(prefix: 'PKD' | 'PKB', now: Date, random: Buffer): string {
  if (random.length !== randomBytesCount) throw new Error(`a reference id needs ${randomBytesCount} random bytes`);
  return `${prefix}-${String(now.getTime()).padStart(13, '0')}-${random.toString('hex').toUpperCase()}`;
}

export function newReferenceId(now: Date = new Date(), random: Buffer = randomBytes(randomBytesCount)): string {
  return handle('PKD', now, random);
}

export function newBulkId(now: Date = new Date(), random: Buffer = randomBytes(randomBytesCount)): string {
  return handle('PKB', now, random);
}

export function isReferenceId(text: string): boolean {
  return referenceIdPattern.test(text);
}

export function isBulkId(text: string): boolean {
  return bulkIdPattern.test(text);
}
