import { parse } from 'csv-parse/sync';

/**
 * A bulk payout file as finance staff export it from a spreadsheet (decision 0074): a header line
 * naming the columns phone, amount, externalId and (optionally) note, in any order and any case,
 * then one payout per line, RFC 4180 quoting (csv-parse). Each line becomes a payout for the bulk
 * quote, or a problem naming its line and what to fix; a line's problem never stops the others.
 */
export const bulkCsvColumns = ['phone', 'amount', 'externalId', 'note'] as const;
export const bulkCsvLinesMax = 1_000;
export const bulkCsvCharactersMax = 1_000_000;

export interface BulkCsvPayout {
  /** The line of the file (the header is line 1). */
  line: number;
  phone: string;
  /** Major units as the API takes them: at most two decimals. */
  amount: number;
  externalId: string;
  note: string | null;
}

export interface BulkCsvProblem {
  line: number;
  externalId: string | null;
  message: string;
}

export type BulkCsvReading = { kind: 'read'; payouts: BulkCsvPayout[]; problems: BulkCsvProblem[] } | { kind: 'refused'; message: string };

const amountPattern = /^\d{1,12}(\.\d{1,2})?$/;

export function readBulkCsv(text: string): BulkCsvReading {
  if (text.length > bulkCsvCharactersMax) return { kind: 'refused', message: `The file is larger than ${bulkCsvCharactersMax} characters: split it into bulks of at most ${bulkCsvLinesMax} payouts` };
  let records: string[][];
  try {
    const parsed: unknown = parse(text.replace(/^\uFEFF/, ''), { skip_empty_lines: true, relax_column_count: true, trim: true });
    records = parsed as string[][];
  } catch (error) {
    return { kind: 'refused', message: `The file is not CSV: ${error instanceof Error ? error.message : 'it could not be read'}` };
  }
  const [header, ...rows] = records;
  if (header === undefined) return { kind: 'refused', message: 'The file is empty: the first line names the columns phone, amount, externalId and note' };
  const positions = columnPositions(header);
  if (typeof positions === 'string') return { kind: 'refused', message: positions };
  if (rows.length === 0) return { kind: 'refused', message: 'The file has no payout: add one line per payout under the header' };
  if (rows.length > bulkCsvLinesMax) return { kind: 'refused', message: `The file has ${rows.length} payouts: a bulk holds at most ${bulkCsvLinesMax}` };
  const payouts: BulkCsvPayout[] = [];
  const problems: BulkCsvProblem[] = [];
  rows.forEach((row, index) => {
    const line = index + 2;
    const cell = (column: (typeof bulkCsvColumns)[number]): string => {
      const position = positions[column];
      return position === undefined ? '' : (row[position] ?? '');
    };
    const externalId = cell('externalId');
    const amountText = cell('amount').replace(/,/g, '');
    const problem =
      cell('phone') === '' ? 'phone is empty'
      : !amountPattern.test(amountText) ? `amount "${cell('amount').slice(0, 20)}" is not an amount such as 25.50 (at most two decimals)`
      : externalId === '' ? 'externalId is empty'
      : undefined;
    if (problem !== undefined) {
      problems.push({ line, externalId: externalId === '' ? null : externalId, message: `Line ${line}: ${problem}` });
      return;
    }
    const note = cell('note');
    payouts.push({ line, phone: cell('phone'), amount: Number(amountText), externalId, note: note === '' ? null : note });
  });
  return { kind: 'read', payouts, problems };
}

function columnPositions(header: readonly string[]): Partial<Record<(typeof bulkCsvColumns)[number], number>> | string {
  const names = header.map((name) => name.trim().toLowerCase());
  const positions: Partial<Record<(typeof bulkCsvColumns)[number], number>> = {};
  for (const column of bulkCsvColumns) {
    const position = names.indexOf(column.toLowerCase());
    if (position >= 0) positions[column] = position;
  }
  const missing = bulkCsvColumns.filter((column) => column !== 'note' && positions[column] === undefined);
  if (missing.length > 0) return `The first line must name the columns phone, amount, externalId (and optionally note); missing: ${missing.join(', ')}`;
  return positions;
}

/**
 * The bulk quote's refusal of one item as the file's line shows it: the API names the item's
 * fields by their place in the request (`items.4.amount`), which the person who wrote the file
 * never saw; on the line that place is the line itself, so the field is named alone (`amount`).
 */
export function lineProblemOf(failure: { code: string; message: string }, itemIndex: number): string {
  return `${failure.code}: ${failure.message.split(`items.${itemIndex}.`).join('')}`;
}
