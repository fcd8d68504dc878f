import type { PublicStatementMovement } from '@pwa/contracts';
import { csvCell } from '@pwa/http';

/**
 * A statement page as RFC 4180 CSV: CRLF line ends, the header then one movement a line. Text cells
 * go through the one CSV cell writer (libs/http csv.ts): quoted when they hold a comma, a quote or
 * a line break, and neutralised with a leading apostrophe when a spreadsheet would run them as a
 * formula (an externalId such as =HYPERLINK(…) is the partner's own text, opened by its finance
 * team). Amounts are numbers as the JSON writes them (a minus sign is a negative amount, never a formula).
 */
export function statementCsvOf(header: readonly string[], items: readonly PublicStatementMovement[]): string {
  return [header.join(','), ...items.map(csvLineOf)].map((line) => `${line}\r\n`).join('');
}

function csvLineOf(item: PublicStatementMovement): string {
  const text = [item.postedAt, item.type, item.referenceId, item.transactionId, item.externalId ?? ''].map(csvCell);
  return [...text, String(item.amount), String(item.balanceAfter)].join(',');
}
