import { createHash } from 'node:crypto';

/**
 * A UUID derived from a name (RFC 9562 version 5, SHA-1 in a private namespace). The sandbox seed
 * uses it for the transfer ids of its opening credits, so running the seed again finds the same
 * ids and moves no money twice.
 */
const walletNamespace = Buffer.from('6f1c3e7a9b2d4c5e8f0a1b2c3d4e5f60', 'hex');

export function nameBasedUuid(name: string): string {
  const digest = createHash('sha1').update(walletNamespace).update(name, 'utf8').digest();
  const bytes = digest.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
