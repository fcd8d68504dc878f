import type { Express } from 'express';
import { csvCell } from '@pwa/http';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { originOf, parsedInput } from '@pwa/web-auth';
import { bulkCsvLinesMax, lineProblemOf, readBulkCsv, type BulkCsvPayout, type BulkCsvProblem } from '../domain/bulk-csv';
import type { PartnerApi } from '../upstream/partner-api';
import { auditOf, personOf, type PeopleDependencies } from '../use-cases/people-dependencies';
import { memberOf, requireMember } from './member-session';
import { dataOf, isNotTheirs, partnerCallerOf, passOn } from './partner-calls';
import { twoDecimals } from '../use-cases/statement-csv';

export const bulkPaths = {
  quote: '/api/v1/bulk-payouts/quote',
  transfer: '/api/v1/bulk-payouts',
  list: '/api/v1/bulk-payouts',
  bulk: '/api/v1/bulk-payouts/:bulkId',
  outcome: '/api/v1/bulk-payouts/:bulkId/outcome.csv',
} as const;

/** The one dashboard route whose body may be large: a bulk file of up to 1,000 payouts (the API's bulk quote takes 2 MB). */
export const bulkUploadBodyLimit = { limit: '2mb', appliesTo: (req: { method: string; path: string }) => req.method === 'POST' && req.path === bulkPaths.quote };

const bulkIdField = z.string().regex(/^PKB-[0-9A-Za-z-]{1,80}$/, 'a bulkId such as PKB-…');

interface QuoteItem {
  index: number;
  status: 'valid' | 'invalid';
  recipientName?: string;
  fee?: number;
  totalDebit?: number;
  failureReason?: { code: string; message: string };
}

/** One line of the preview: the file's payout with the bulk quote's result for it, or the file's own problem. */
function previewLines(payouts: BulkCsvPayout[], problems: BulkCsvProblem[], items: QuoteItem[]) {
  const quoted = payouts.map((payout, index) => {
    const item = items.find((each) => each.index === index);
    return {
      line: payout.line,
      phone: payout.phone,
      amount: payout.amount,
      externalId: payout.externalId,
      note: payout.note,
      status: item?.status ?? 'invalid',
      recipientName: item?.recipientName ?? null,
      fee: item?.fee ?? null,
      totalDebit: item?.totalDebit ?? null,
      problem: item?.failureReason === undefined ? null : lineProblemOf(item.failureReason, index),
    };
  });
  const unread = problems.map((problem) => ({ line: problem.line, phone: null, amount: null, externalId: problem.externalId, note: null, status: 'invalid' as const, recipientName: null, fee: null, totalDebit: null, problem: problem.message }));
  return [...quoted, ...unread].sort((left, right) => left.line - right.line);
}

/**
 * Bulk payouts from a CSV file (finance and admins): upload and preview (the API's bulk quote, one
 * result per line, nothing moves), confirm (the bulk transfer: money leaves, finance or admin
 * only), follow its progress and download each payout's outcome. Uploads and confirmations are in
 * the partner's audit log with their counts and totals.
 */
export function mountBulkRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string, api: PartnerApi): void {
  const callForMember = partnerCallerOf(api);

  app.post(bulkPaths.quote, ...requireMember(deps, consoleOrigin, 'upload_bulk'), async (req, res) => {
    // The file's lines as an array: a JSON string holding line breaks is refused by the body's text rules (no control characters).
    const input = parsedInput(
      z.object({
        currency: z.enum(['LRD', 'USD'], 'LRD or USD'),
        lines: z.array(z.string().max(2_000, 'a line of at most 2,000 characters')).min(1, 'the file is empty').max(bulkCsvLinesMax + 2, `at most ${bulkCsvLinesMax} payouts and the header`),
      }),
      req.body,
    );
    const reading = readBulkCsv(input.lines.join('\n'));
    if (reading.kind === 'refused') throw new ConsoleError('CON_2001', reading.message);
    const member = memberOf(res);
    const { payouts, problems } = reading;
    let quote: { bulkQuoteId: string | null; expiresAt: string | null; totalAmount: number; totalFee: number; totalDebit: number; partnerBalance: number | null; items: QuoteItem[] } = {
      bulkQuoteId: null,
      expiresAt: null,
      totalAmount: 0,
      totalFee: 0,
      totalDebit: 0,
      partnerBalance: null,
      items: [],
    };
    if (payouts.length > 0) {
      const answer = await callForMember(res, {
        owner: 'disbursements',
        method: 'POST',
        permission: 'disbursement',
        path: '/partner/v1/disbursement/bulk/quote',
        body: { currency: input.currency, items: payouts.map(({ phone, amount, externalId, note }) => ({ phone, amount, externalId, ...(note === null ? {} : { note }) })) },
      });
      const refusal = answer.body as { code?: string; items?: QuoteItem[] } | undefined;
      // No valid item: the API refuses the whole bulk with every item's result; the preview shows them, with nothing to confirm.
      if (answer.status === 400 && refusal?.code === 'PKC_5005' && Array.isArray(refusal.items)) quote = { ...quote, items: refusal.items };
      else quote = dataOf(answer) as typeof quote;
    }
    const lines = previewLines(payouts, problems, quote.items);
    const validCount = lines.filter((line) => line.status === 'valid').length;
    await auditOf(deps, originOf(req, res), {
      actor: personOf(member),
      action: 'bulk.upload',
      target: { kind: 'bulk_quote', id: quote.bulkQuoteId ?? 'none' },
      partnerId: member.partnerId,
      after: { currency: input.currency, lines: lines.length, valid: validCount, invalid: lines.length - validCount, totalDebit: quote.totalDebit },
      outcome: 'done',
    });
    res.json({ success: true, data: { bulkQuoteId: quote.bulkQuoteId, expiresAt: quote.expiresAt, currency: input.currency, lineCount: lines.length, validCount, invalidCount: lines.length - validCount, totalAmount: quote.totalAmount, totalFee: quote.totalFee, totalDebit: quote.totalDebit, partnerBalance: quote.partnerBalance, lines } });
  });

  app.post(bulkPaths.transfer, ...requireMember(deps, consoleOrigin, 'confirm_bulk'), async (req, res) => {
    const input = parsedInput(z.object({ bulkQuoteId: z.uuid('the bulkQuoteId of the preview'), externalId: z.string().trim().min(1, 'required').max(100, 'at most 100 characters') }), req.body);
    const member = memberOf(res);
    const answer = await callForMember(res, { owner: 'disbursements', method: 'POST', permission: 'disbursement', path: '/partner/v1/disbursement/bulk/transfer', body: input });
    const accepted = answer.status === 200 || answer.status === 202;
    const summary = (answer.body as { data?: { bulkId?: string; counts?: unknown; totalDebit?: number } } | undefined)?.data;
    await auditOf(deps, originOf(req, res), {
      actor: personOf(member),
      action: 'bulk.confirm',
      target: { kind: 'bulk', id: summary?.bulkId ?? input.bulkQuoteId },
      partnerId: member.partnerId,
      ...(accepted ? { after: { bulkQuoteId: input.bulkQuoteId, externalId: input.externalId, totalDebit: summary?.totalDebit ?? null }, outcome: 'done' as const } : { outcome: 'refused' as const, reason: `the API answered ${answer.status} ${codeOf(answer.body)}`.trim() }),
    });
    passOn(res, answer);
  });

  // The partner's bulks, newest first (the API's GET /partner/v1/disbursement/bulks: its filters, keyset pages); the owner names a bad filter.
  app.get(bulkPaths.list, ...requireMember(deps, consoleOrigin, 'read'), async (req, res) => {
    const query = parsedInput(
      z.object({ status: z.string().max(40).optional(), createdFrom: z.string().max(40).optional(), createdTo: z.string().max(40).optional(), limit: z.string().max(3).optional(), cursor: z.string().max(512).optional() }).strict(),
      req.query,
      'query parameters',
    );
    const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')).toString();
    passOn(res, await callForMember(res, { owner: 'disbursements', method: 'GET', path: search === '' ? '/partner/v1/disbursement/bulks' : `/partner/v1/disbursement/bulks?${search}` }));
  });

  app.get(bulkPaths.bulk, ...requireMember(deps, consoleOrigin, 'read'), async (req, res) => {
    const { bulkId } = parsedInput(z.object({ bulkId: bulkIdField }), req.params, 'query parameters');
    const query = parsedInput(z.object({ limit: z.string().max(3).optional(), cursor: z.string().max(512).optional() }).strict(), req.query, 'query parameters');
    const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
    const answer = await callForMember(res, { owner: 'disbursements', method: 'GET', path: `/partner/v1/disbursement/bulk/${encodeURIComponent(bulkId)}${search === '' ? '' : `?${search}`}` });
    if (isNotTheirs(answer)) throw new ConsoleError('CON_4017', `No bulk ${bulkId} among your partner’s records: check the id`);
    passOn(res, answer);
  });

  // Every payout of the bulk with what became of it, page after page as the owner gives them.
  app.get(bulkPaths.outcome, ...requireMember(deps, consoleOrigin, 'read'), async (req, res) => {
    const { bulkId } = parsedInput(z.object({ bulkId: bulkIdField }), req.params, 'query parameters');
    const header = ['index', 'externalId', 'phone', 'amount', 'fee', 'status', 'referenceId', 'failureReason'];
    const rows: string[] = [`${header.join(',')}\r\n`];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page += 1) {
      const answer = await callForMember(res, { owner: 'disbursements', method: 'GET', path: `/partner/v1/disbursement/bulk/${encodeURIComponent(bulkId)}/items?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}` });
      if (isNotTheirs(answer)) throw new ConsoleError('CON_4017', `No bulk ${bulkId} among your partner’s records: check the id`);
      const page = dataOf(answer) as { items: OutcomeItem[]; nextCursor: string | null };
      for (const item of page.items) rows.push(outcomeLine(item));
      cursor = page.nextCursor;
      if (cursor === null) break;
    }
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${bulkId.replace(/[^A-Za-z0-9-]/g, '_')}-outcome.csv"`);
    res.send(rows.join(''));
  });
}

interface OutcomeItem {
  index: number;
  externalId: string | null;
  phone?: string;
  amount: number;
  fee?: number;
  status: string;
  referenceId?: string;
  failureReason?: { code: string; message: string } | null;
}

function outcomeLine(item: OutcomeItem): string {
  const text = [String(item.index), item.externalId ?? '', item.phone ?? ''].map(csvCell);
  const money = [twoDecimals(item.amount), item.fee === undefined ? '' : twoDecimals(item.fee)];
  const rest = [item.status, item.referenceId ?? '', item.failureReason ? `${item.failureReason.code}: ${item.failureReason.message}` : ''].map(csvCell);
  return `${[...text, ...money, ...rest].join(',')}\r\n`;
}

function codeOf(body: unknown): string {
  const code = (body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '';
}
