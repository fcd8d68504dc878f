import type { PostingKind } from './posting';

/**
 * The partner statement's movements from its ledger lines (decision 0050). A line is one ledger
 * entry on the partner account with the balance right after it; the statement shows the fee of a
 * transfer as a movement of its own, so a disbursement's one entry of -(amount + fee) becomes two
 * movements: the amount, then the fee. Pure: the store reads the lines, this splits them.
 */

export type StatementMovementType = 'funding' | 'collection' | 'collection_fee' | 'disbursement' | 'disbursement_fee' | 'refund' | 'reversal';

export interface StatementLine {
  lineId: bigint;
  /** posted_at exactly as the database holds it (microseconds), for the cursor. */
  postedAtExact: string;
  postedAt: Date;
  /** The entry's signed amount on the partner account. */
  entryAmountMinor: bigint;
  balanceAfterMinor: bigint;
  kind: PostingKind;
  transferAmountMinor: bigint;
  transferFeeMinor: bigint;
  transactionId: string;
  referenceId: string | null;
  externalId: string | null;
}

export interface StatementMovement {
  lineId: bigint;
  postedAtExact: string;
  /** 0 for a line's first movement, 1 for the fee split from it. */
  part: 0 | 1;
  postedAt: Date;
  type: StatementMovementType;
  referenceId: string;
  transactionId: string;
  externalId: string | null;
  amountMinor: bigint;
  balanceAfterMinor: bigint;
}

/**
 * A line's movements. A disbursement's entry is -(amount + fee): the amount (balance after it: the
 * line's balance plus the fee), then the fee. A collection's entry is +amount (the user bears the
 * fee), or +(amount - fee) should a partner bear one: then the amount and the collection fee. A
 * refund (-amount, named by its PKR-…) and a reversal (+amount, named by the reversed
 * disbursement's PKD-…) carry no fee, so each is one movement. An entry that matches no known
 * shape is shown as it is, one movement of the entry's amount, so the statement still adds up.
 */
export function movementsOfLine(line: StatementLine): StatementMovement[] {
  const base = {
    lineId: line.lineId,
    postedAtExact: line.postedAtExact,
    postedAt: line.postedAt,
    referenceId: line.referenceId ?? line.transactionId,
    transactionId: line.transactionId,
    externalId: line.externalId,
  };
  const { entryAmountMinor: entry, transferAmountMinor: amount, transferFeeMinor: fee, balanceAfterMinor: after } = line;
  if (fee > 0n && line.kind === 'disbursement' && entry === -(amount + fee)) {
    return [
      { ...base, part: 0, type: 'disbursement', amountMinor: -amount, balanceAfterMinor: after + fee },
      { ...base, part: 1, type: 'disbursement_fee', amountMinor: -fee, balanceAfterMinor: after },
    ];
  }
  if (fee > 0n && line.kind === 'collection' && entry === amount - fee) {
    return [
      { ...base, part: 0, type: 'collection', amountMinor: amount, balanceAfterMinor: after + fee },
      { ...base, part: 1, type: 'collection_fee', amountMinor: -fee, balanceAfterMinor: after },
    ];
  }
  return [{ ...base, part: 0, type: typeOfKind(line.kind), amountMinor: entry, balanceAfterMinor: after }];
}

function typeOfKind(kind: PostingKind): StatementMovementType {
  switch (kind) {
    case 'collection':
    case 'disbursement':
    case 'refund':
    case 'reversal':
    case 'funding':
      return kind;
    case 'funding_correction':
      // A correction of a funding: a funding line with a negative amount (the public statement's types stay as they are).
      return 'funding';
    case 'sandbox_credit':
      // Never on a partner account (it credits a user wallet); shown as money arriving should it be.
      return 'funding';
  }
}

export interface MovementPosition {
  lineId: bigint;
  part: 0 | 1;
}

/** Whether a movement comes after a position in the statement's order (line, then part). */
export function isAfter(movement: MovementPosition, position: MovementPosition | undefined): boolean {
  if (position === undefined) return true;
  return movement.lineId > position.lineId || (movement.lineId === position.lineId && movement.part > position.part);
}
