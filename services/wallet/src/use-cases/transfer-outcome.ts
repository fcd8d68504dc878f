import type { TransferRecord } from '../store/transfer-store';

/**
 * What the caller of a posting learns: the money moved (now, or by an earlier call with the same
 * id: `replayed`), or the id was cancelled.
 */
export type PostingOutcome =
  | { state: 'posted'; transferId: string; transactionId: string; postedAt: Date; replayed: boolean }
  | { state: 'cancelled'; transferId: string };

export function outcomeOf(record: TransferRecord): PostingOutcome {
  return record.state === 'posted'
    ? { state: 'posted', transferId: record.transferId, transactionId: record.transactionId, postedAt: record.postedAt, replayed: true }
    : { state: 'cancelled', transferId: record.transferId };
}
