import type { Queryable } from '@pwa/db';
import { minorFromDatabase, type Currency } from '@pwa/money';
import type { PostingKind } from '../domain/posting';
import type { StatementLine } from '../domain/statement-lines';

export interface StatementWindow {
  partnerId: string;
  currency: Currency;
  /** The period's start (inclusive): the opening balance is the balance just before it. */
  from: Date;
  /** The period's end (exclusive): the closing balance is the balance at it. */
  until: Date;
  /** Where the page starts (inclusive): (from, 0) for the first page, else the cursor's line. */
  startPostedAtExact: string;
  startLineId: bigint;
  lineCountMax: number;
}

export interface StatementRead {
  openingBalanceMinor: bigint;
  closingBalanceMinor: bigint;
  lines: StatementLine[];
}

interface StatementRow {
  opening_minor: string | null;
  closing_minor: string | null;
  line_id: string | null;
  posted_at_exact: string | null;
  posted_at: Date | null;
  entry_amount_minor: string | null;
  balance_after_minor: string | null;
  kind: PostingKind | null;
  transfer_amount_minor: string | null;
  fee_minor: string | null;
  transaction_id: string | null;
  reference_id: string | null;
  external_id: string | null;
}

/**
 * One page of the partner's statement in one statement (one snapshot, so the balances and the lines
 * agree): the balance just before `from` and at `until` (the last line before each, by the index
 * read backwards; zero before the account's first line), and up to lineCountMax lines from the
 * start position, each with its transfer (by primary key). Every part is a range scan of
 * statement_lines_account_time_idx (account, posted_at, line_id); the account is found by its
 * unique (partner, currency) index. No account yet: zero balances and no lines.
 */
export async function readStatementPage(db: Queryable, window: StatementWindow): Promise<StatementRead> {
  const result = await db.query<StatementRow>(
    `WITH account AS (
       SELECT account_id FROM ledger_accounts WHERE kind = 'partner' AND partner_id = $1 AND currency = $2
     )
     SELECT o.opening_minor::text, c.closing_minor::text,
            l.line_id::text, to_char(l.posted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS posted_at_exact, l.posted_at,
            l.amount_minor::text AS entry_amount_minor, l.balance_after_minor::text,
            t.kind, t.amount_minor::text AS transfer_amount_minor, t.fee_minor::text, t.transaction_id, t.reference_id, t.external_id
       FROM account a
       LEFT JOIN LATERAL (
         SELECT s.balance_after_minor AS opening_minor FROM partner_statement_lines s
          WHERE s.account_id = a.account_id AND s.posted_at < $3 ORDER BY s.posted_at DESC, s.line_id DESC LIMIT 1
       ) o ON true
       LEFT JOIN LATERAL (
         SELECT s.balance_after_minor AS closing_minor FROM partner_statement_lines s
          WHERE s.account_id = a.account_id AND s.posted_at < $4 ORDER BY s.posted_at DESC, s.line_id DESC LIMIT 1
       ) c ON true
       LEFT JOIN LATERAL (
         SELECT s.line_id, s.posted_at, s.amount_minor, s.balance_after_minor, s.transfer_id FROM partner_statement_lines s
          WHERE s.account_id = a.account_id AND (s.posted_at, s.line_id) >= ($5::timestamptz, $6::bigint) AND s.posted_at < $4
          ORDER BY s.posted_at, s.line_id LIMIT $7
       ) l ON true
       -- LIMIT 1 keeps this a lookup by primary key per line: without it the generic plan (LIMIT $7
       -- unknown) may hash-join the whole transfers table (EXPLAIN in decision 0050).
       LEFT JOIN LATERAL (SELECT t.* FROM transfers t WHERE t.transfer_id = l.transfer_id LIMIT 1) t ON true
      ORDER BY l.posted_at, l.line_id`,
    [window.partnerId, window.currency, window.from, window.until, window.startPostedAtExact, window.startLineId.toString(), window.lineCountMax],
  );
  const first = result.rows[0];
  return {
    openingBalanceMinor: minorFromDatabase(first?.opening_minor ?? '0'),
    closingBalanceMinor: minorFromDatabase(first?.closing_minor ?? '0'),
    lines: result.rows.flatMap(toLine),
  };
}

function toLine(row: StatementRow): StatementLine[] {
  if (row.line_id === null) return [];
  if (
    row.posted_at_exact === null || row.posted_at === null || row.entry_amount_minor === null || row.balance_after_minor === null
    || row.kind === null || row.transfer_amount_minor === null || row.fee_minor === null || row.transaction_id === null
  ) {
    throw new Error(`statement line ${row.line_id} has no posted transfer`);
  }
  return [{
    lineId: BigInt(row.line_id),
    postedAtExact: row.posted_at_exact,
    postedAt: row.posted_at,
    entryAmountMinor: minorFromDatabase(row.entry_amount_minor),
    balanceAfterMinor: minorFromDatabase(row.balance_after_minor),
    kind: row.kind,
    transferAmountMinor: minorFromDatabase(row.transfer_amount_minor),
    transferFeeMinor: minorFromDatabase(row.fee_minor),
    transactionId: row.transaction_id,
    referenceId: row.reference_id,
    externalId: row.external_id,
  }];
}
