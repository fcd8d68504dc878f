import { csvCell } from '@pwa/http';

/**
 * A whole period's statement as one CSV (decision 0074): the owner's statement pages, read one
 * after another, become one file. The first line after the header is the opening balance and the
 * last the closing balance, so a reader (or a spreadsheet) checks that opening plus the sum of the
 * movements' amounts is the closing balance. Cells that a spreadsheet would run as a formula are
 * neutralised (libs/audit csv.ts).
 */
export const statementDownloadColumns = ['postedAt', 'type', 'referenceId', 'transactionId', 'externalId', 'amount', 'balanceAfter'] as const;

export interface StatementPageRead {
  currency: string;
  from: string;
  to: string;
  openingBalance: number;
  closingBalance: number;
  items: { postedAt: string; type: string; referenceId: string; transactionId: string; externalId: string | null; amount: number; balanceAfter: number }[];
  nextCursor: string | null;
}

/** A major-unit amount of the API (at most two decimals) as an exact two-decimal text: -25.5 is "-25.50". */
export function twoDecimals(amount: number): string {
  const minor = Math.round(amount * 100);
  const sign = minor < 0 ? '-' : '';
  const absolute = Math.abs(minor);
  return `${sign}${Math.trunc(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/**
 * One record: text cells through csvCell (quoted, and neutralised when a spreadsheet would run them
 * as a formula), amounts as they are (digits, a point and maybe a minus: a number, never a formula).
 */
function record(text: readonly string[], amounts: readonly [string, string]): string {
  return `${[...text.map(csvCell), ...amounts].join(',')}\r\n`;
}

export function statementHeaderLines(first: StatementPageRead): string {
  return `${statementDownloadColumns.join(',')}\r\n${record([first.from, 'opening_balance', '', '', ''], [twoDecimals(first.openingBalance), twoDecimals(first.openingBalance)])}`;
}

export function statementMovementLines(page: StatementPageRead): string {
  return page.items.map((item) => record([item.postedAt, item.type, item.referenceId, item.transactionId, item.externalId ?? ''], [twoDecimals(item.amount), twoDecimals(item.balanceAfter)])).join('');
}

export function statementClosingLine(first: StatementPageRead): string {
  return record([first.to, 'closing_balance', '', '', ''], [twoDecimals(first.closingBalance), twoDecimals(first.closingBalance)]);
}

/** The file's name: the partner's currency and period, safe in a Content-Disposition header. */
export function statementFileName(page: Pick<StatementPageRead, 'currency' | 'from' | 'to'>): string {
  const day = (instant: string): string => instant.slice(0, 10);
  return `statement-${page.currency}-${day(page.from)}-to-${day(page.to)}.csv`.replace(/[^A-Za-z0-9._-]/g, '_');
}
