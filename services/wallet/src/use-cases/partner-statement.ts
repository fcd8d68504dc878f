import { z } from '@pwa/config';
import {
  decodePageCursor,
  encodePageCursor,
  parsePublicInput,
  statementCsvColumns,
  statementPeriodDaysMax,
  statementQuerySchema,
  type PageCursorScope,
  type PublicStatementMovement,
  type PublicStatementPage,
} from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { invalidCursorError, invalidFieldError } from '@pwa/errors';
import { toApiAmount, type MinorUnits } from '@pwa/money';
import { isAfter, movementsOfLine, type MovementPosition, type StatementMovement } from '../domain/statement-lines';
import { statementCsvOf } from '../domain/statement-csv';
import { readStatementPage } from '../store/statement-store';
import { databaseNow } from '../store/transfer-store';

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Where the next page starts: the last shown movement (its line, exactly, and its part) and the
 * period's end fixed by the first page (`to`, or the time of the first page when `to` was in the
 * future), so every page of one statement shows the same period and the same closing balance.
 */
const positionSchema = z.strictObject({
  at: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  line: z.string().regex(/^[1-9]\d{0,18}$/),
  part: z.union([z.literal(0), z.literal(1)]),
  until: z.iso.datetime(),
});
type Position = z.output<typeof positionSchema>;

export interface StatementAnswer {
  page: PublicStatementPage;
  /** The same page as RFC 4180 CSV (header row, one movement a line). */
  csv(): string;
}


function parseQuery(query: unknown) {
  const parsed = parsePublicInput(statementQuerySchema, query, 'query');
  const from = new Date(parsed.from);
  const to = new Date(parsed.to);
  // from inclusive, to exclusive: an empty or reversed period, or one longer than the limit, is the caller's mistake.
  if (to.getTime() <= from.getTime() || to.getTime() - from.getTime() > statementPeriodDaysMax * dayMs) {
    throw invalidFieldError('PKC_2008', 'to', 'out_of_range', `a time after from and at most ${statementPeriodDaysMax} days after it`);
  }
  return { ...parsed, from, to };
}

/**
 * GET /partner/v1/statement: one page of the partner account's movements in the period, read from
 * the ledger (decision 0050). The opening balance is the balance just before `from`, the closing
 * balance the balance at the period's end; each movement carries the balance after it.
 */
export async function partnerStatement(pool: Pool, partnerId: string, query: unknown): Promise<StatementAnswer> {
  const request = parseQuery(query);
  const scope: PageCursorScope = {
    partnerId,
    list: 'statement',
    filters: { currency: request.currency, from: request.from.toISOString(), to: request.to.toISOString() },
  };
  const position = request.cursor === undefined ? undefined : decodePageCursor(scope, request.cursor, positionSchema);
  if (request.cursor !== undefined && (position === undefined || !isWithin(position, request.from, request.to))) throw invalidCursorError();
  const until = position !== undefined ? new Date(position.until) : periodEnd(request.from, request.to, await databaseNow(pool));

  const read = await readStatementPage(pool, {
    partnerId,
    currency: request.currency,
    from: request.from,
    until,
    startPostedAtExact: position?.at ?? exactOf(request.from),
    startLineId: position === undefined ? 0n : BigInt(position.line),
    // A line is one or two movements, and the cursor's own line is read again: limit + 2 lines
    // always hold limit + 1 movements after the cursor when there are that many.
    lineCountMax: request.limit + 2,
  });
  const after: MovementPosition | undefined = position && { lineId: BigInt(position.line), part: position.part };
  const movements = read.lines.flatMap(movementsOfLine).filter((movement) => isAfter(movement, after));
  const shown = movements.slice(0, request.limit);
  const last = shown[shown.length - 1];
  const hasMore = movements.length > request.limit && last !== undefined;
  const nextCursor = hasMore ? encodePageCursor(scope, { at: last.postedAtExact, line: last.lineId.toString(), part: last.part, until: until.toISOString() } satisfies Position) : null;
  const items = shown.map(movementView);
  const page: PublicStatementPage = {
    currency: request.currency,
    from: request.from.toISOString(),
    to: until.toISOString(),
    openingBalance: toApiAmount(read.openingBalanceMinor),
    closingBalance: toApiAmount(read.closingBalanceMinor),
    items,
    nextCursor,
    hasMore,
  };
  return { page, csv: () => statementCsvOf(statementCsvColumns, items) };
}

export function wantsCsv(query: unknown, acceptsCsvBeforeJson: boolean): boolean {
  const format = typeof query === 'object' && query !== null ? (query as Record<string, unknown>).format : undefined;
  if (format === 'csv') return true;
  if (format === 'json') return false;
  return acceptsCsvBeforeJson;
}

/** The period ends at `to`, or now when `to` is in the future (and never before `from`). */
function periodEnd(from: Date, to: Date, now: Date): Date {
  return new Date(Math.max(from.getTime(), Math.min(to.getTime(), now.getTime())));
}

/** A cursor's fixed end lies in the period it was made for (the scope binds from and to already). */
function isWithin(position: Position, from: Date, to: Date): boolean {
  const until = new Date(position.until).getTime();
  return until >= from.getTime() && until <= to.getTime();
}

/** An instant in the exact form the store compares with (microseconds, UTC). */
function exactOf(instant: Date): string {
  return instant.toISOString().replace(/Z$/, '000Z');
}

/** Signed minor units to the API's decimal (the sign of the movement kept). */
function signedApiAmount(minor: MinorUnits): number {
  return minor < 0n ? -toApiAmount(-minor) : toApiAmount(minor);
}

function movementView(movement: StatementMovement): PublicStatementMovement {
  return {
    postedAt: movement.postedAt.toISOString(),
    type: movement.type,
    referenceId: movement.referenceId,
    transactionId: movement.transactionId,
    externalId: movement.externalId,
    amount: signedApiAmount(movement.amountMinor),
    balanceAfter: toApiAmount(movement.balanceAfterMinor),
  };
}

