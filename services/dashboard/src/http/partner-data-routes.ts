import type { Express, Request, Response } from 'express';
import { z } from '@pwa/config';
import { publicApi } from '@pwa/contracts';
import { ConsoleError } from '@pwa/errors';
import { parsedInput } from '@pwa/web-auth';
import type { PartnerAnswer, PartnerApi, PartnerCall } from '../upstream/partner-api';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { statementClosingLine, statementFileName, statementHeaderLines, statementMovementLines, type StatementPageRead } from '../use-cases/statement-csv';
import { statusChangesOf, type StoryDelivery, type StoryRecord, type StoryRefund } from '../domain/transaction-story';
import { requireMember } from './member-session';
import { dataOf, hasMoreOf, isNotTheirs, listOf, partnerCallerOf, passOn } from './partner-calls';

export const partnerDataPaths = {
  overview: '/api/v1/overview',
  transactions: '/api/v1/transactions/:kind',
  transaction: '/api/v1/transaction/:referenceId',
  story: '/api/v1/transaction/:referenceId/story',
  events: '/api/v1/events',
  statement: '/api/v1/statement.csv',
  statementBalances: '/api/v1/statement/balances',
} as const;

/** A statement's period as the page asks it (the wallet checks each value, and names a bad one). */
const statementQuerySchema = z.object({ currency: z.string().max(3), from: z.string().max(40), to: z.string().max(40) }).strict();

/** The lists a member reads, each the owner's partner list route (the API's filters, keyset pages). */
const transactionLists = {
  collections: { owner: 'collections', path: '/partner/v1/collections' },
  disbursements: { owner: 'disbursements', path: '/partner/v1/disbursements' },
  refunds: { owner: 'collections', path: '/partner/v1/refunds' },
  deliveries: { owner: 'webhooks', path: '/partner/v1/webhooks/deliveries' },
} as const satisfies Record<string, Pick<PartnerCall, 'owner' | 'path'>>;

/** The list filters passed on (the owner checks each, and names a bad one); anything else is refused here. */
const listQuerySchema = z
  .object({
    status: z.string().max(40).optional(),
    currency: z.string().max(3).optional(),
    externalId: z.string().max(100).optional(),
    phone: z.string().max(40).optional(),
    referenceId: z.string().max(100).optional(),
    collectionReferenceId: z.string().max(100).optional(),
    createdFrom: z.string().max(40).optional(),
    createdTo: z.string().max(40).optional(),
    event: z.string().max(60).optional(),
    limit: z.string().max(3).optional(),
    cursor: z.string().max(512).optional(),
  })
  .strict();

/** The event log's filters (the API's GET /partner/v1/events: type, since, keyset pages); the webhook service checks each and names a bad one. */
const eventListQuerySchema = z
  .object({
    type: z.string().max(60).optional(),
    since: z.string().max(40).optional(),
    limit: z.string().max(3).optional(),
    cursor: z.string().max(512).optional(),
  })
  .strict();

/** How many deliveries and refunds a story shows (the API's page maximum); more are in the lists, said on the page. */
const storyListLimit = 100;

/** A referenceId names its kind: PKC- a collection, PKD- a disbursement, PKR- a refund (the spec's prefixes). */
const detailOwners: readonly { prefix: string; owner: PartnerCall['owner']; path: (referenceId: string) => string }[] = [
  { prefix: 'PKC-', owner: 'collections', path: (id) => `/partner/v1/collection/${encodeURIComponent(id)}` },
  { prefix: 'PKD-', owner: 'disbursements', path: (id) => `/partner/v1/disbursement/${encodeURIComponent(id)}` },
  { prefix: 'PKR-', owner: 'collections', path: (id) => `/partner/v1/refund/${encodeURIComponent(id)}` },
];

/**
 * The partner's data for the signed-in member, read through the owners' partner routes with the
 * member's partner asserted (never an id from the request): a referenceId of another partner is
 * the owner's own 404, exactly as the API answers it. The owners' refusals (4xx with their PKC
 * code and message) are passed on as they are.
 */
export function mountPartnerDataRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string, api: PartnerApi): void {
  const callForMember = partnerCallerOf(api);

  app.get(partnerDataPaths.overview, ...requireMember(deps, consoleOrigin, 'read'), async (_req, res) => {
    const [balance, collections, disbursements, failedDeliveries, deliveries] = await Promise.all([
      callForMember(res, { owner: 'wallet', method: 'GET', path: '/partner/v1/balance' }),
      callForMember(res, { owner: 'collections', method: 'GET', path: '/partner/v1/collections?limit=5' }),
      callForMember(res, { owner: 'disbursements', method: 'GET', path: '/partner/v1/disbursements?limit=5' }),
      callForMember(res, { owner: 'webhooks', method: 'GET', path: '/partner/v1/webhooks/deliveries?status=failed&limit=50' }),
      callForMember(res, { owner: 'webhooks', method: 'GET', path: '/partner/v1/webhooks/deliveries?status=delivered&limit=1' }),
    ]);
    const failed = listOf(failedDeliveries, 'deliveries');
    const lastDelivered = listOf(deliveries, 'deliveries')[0] as { deliveredAt?: string | null; event?: string; referenceId?: string } | undefined;
    res.json({
      success: true,
      data: {
        balances: dataOf(balance),
        recentCollections: listOf(collections, 'items'),
        recentDisbursements: listOf(disbursements, 'items'),
        webhookHealth: { failingDeliveries: failed.length, failingDeliveriesMore: hasMoreOf(failedDeliveries), lastDelivered: lastDelivered ?? null },
      },
    });
  });

  app.get(partnerDataPaths.transactions, ...requireMember(deps, consoleOrigin, 'read'), async (req, res) => {
    const { kind } = parsedInput(z.object({ kind: z.enum(Object.keys(transactionLists) as [keyof typeof transactionLists], `one of ${Object.keys(transactionLists).join(', ')}`) }), req.params, 'query parameters');
    const query = parsedInput(listQuerySchema, req.query, 'query parameters');
    const list = transactionLists[kind];
    const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
    const answer = await callForMember(res, { owner: list.owner, method: 'GET', path: search === '' ? list.path : `${list.path}?${search}` });
    passOn(res, answer);
  });

  // The partner's events (every webhook sent or to be sent, whatever became of its delivery), oldest first, as the API lists them.
  app.get(partnerDataPaths.events, ...requireMember(deps, consoleOrigin, 'read'), async (req, res) => {
    const query = parsedInput(eventListQuerySchema, req.query, 'query parameters');
    const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')).toString();
    const answer = await callForMember(res, { owner: 'webhooks', method: 'GET', path: search === '' ? '/partner/v1/events' : `/partner/v1/events?${search}` });
    passOn(res, answer);
  });

  const recordOf = async (req: Request, res: Response): Promise<{ referenceId: string; answer: PartnerAnswer }> => {
    const { referenceId } = parsedInput(z.object({ referenceId: z.string().min(5).max(80).regex(/^[A-Za-z0-9-]+$/, 'a referenceId such as PKC-…, PKD-… or PKR-…') }), req.params, 'query parameters');
    const owner = detailOwners.find((candidate) => referenceId.toUpperCase().startsWith(candidate.prefix));
    if (!owner) throw new ConsoleError('CON_2001', 'Missing or invalid query parameters: referenceId (starts with PKC-, PKD- or PKR-)');
    const answer = await callForMember(res, { owner: owner.owner, method: 'GET', path: owner.path(referenceId) });
    // Unknown and another partner's (the API's 403 PKC_6005) read the same: nothing says the id exists.
    if (isNotTheirs(answer)) throw new ConsoleError('CON_4017', `No transaction ${referenceId} among your partner’s records: check the id`);
    return { referenceId, answer };
  };

  app.get(partnerDataPaths.transaction, ...requireMember(deps, consoleOrigin, 'read'), async (req, res) => {
    passOn(res, (await recordOf(req, res)).answer);
  });

  // The whole story in one answer: the record, when its status changed, its refunds and every webhook sent about it with each attempt.
  app.get(partnerDataPaths.story, ...requireMember(deps, consoleOrigin, 'read'), async (req, res) => {
    const { referenceId, answer } = await recordOf(req, res);
    const transaction = dataOf(answer) as StoryRecord & Record<string, unknown>;
    const isCollection = referenceId.toUpperCase().startsWith('PKC-');
    const [deliveriesAnswer, refundsAnswer] = await Promise.all([
      callForMember(res, { owner: 'webhooks', method: 'GET', path: `/partner/v1/webhooks/deliveries?${new URLSearchParams({ referenceId, limit: String(storyListLimit) }).toString()}` }),
      isCollection ? callForMember(res, { owner: 'collections', method: 'GET', path: `/partner/v1/refunds?${new URLSearchParams({ collectionReferenceId: referenceId, limit: String(storyListLimit) }).toString()}` }) : undefined,
    ]);
    const deliveries = listOf(deliveriesAnswer, 'items') as StoryDelivery[];
    const refunds = refundsAnswer === undefined ? [] : (listOf(refundsAnswer, 'items') as StoryRefund[]);
    res.json({
      success: true,
      data: {
        transaction,
        statusChanges: statusChangesOf(transaction, deliveries, refunds),
        refunds: isCollection ? refunds : null,
        refundsMore: refundsAnswer === undefined ? false : hasMoreOf(refundsAnswer),
        deliveries,
        deliveriesMore: hasMoreOf(deliveriesAnswer),
      },
    });
  });

  // The period's opening and closing balances as the API's statement gives them, shown on the page before the download.
  app.get(partnerDataPaths.statementBalances, ...requireMember(deps, consoleOrigin, 'download_statement'), async (req, res) => {
    const query = parsedInput(statementQuerySchema, req.query, 'query parameters');
    const search = new URLSearchParams({ ...query, limit: '1' });
    const answer = await callForMember(res, { owner: 'wallet', method: 'GET', path: `/partner/v1/statement?${search.toString()}` });
    if (answer.status !== 200) {
      passOn(res, answer);
      return;
    }
    const page = dataOf(answer) as StatementPageRead;
    res.json({ success: true, data: { currency: page.currency, from: page.from, to: page.to, openingBalance: page.openingBalance, closingBalance: page.closingBalance } });
  });

  // The whole period as one CSV, page after page as the owner gives them (never the whole period in memory).
  app.get(partnerDataPaths.statement, ...requireMember(deps, consoleOrigin, 'download_statement'), async (req, res) => {
    const query = parsedInput(statementQuerySchema, req.query, 'query parameters');
    const pageOf = async (cursor: string | null): Promise<StatementPageRead> => {
      const search = new URLSearchParams({ ...query, limit: String(publicApi.pageLimitMax), ...(cursor === null ? {} : { cursor }) });
      const answer = await callForMember(res, { owner: 'wallet', method: 'GET', path: `/partner/v1/statement?${search.toString()}` });
      if (answer.status !== 200) {
        passOn(res, answer);
        throw new StatementAnswered();
      }
      return dataOf(answer) as StatementPageRead;
    };
    let page: StatementPageRead;
    try {
      page = await pageOf(null);
    } catch (error) {
      if (error instanceof StatementAnswered) return;
      throw error;
    }
    const first = page;
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${statementFileName(first)}"`);
    res.setHeader('X-Opening-Balance', String(first.openingBalance));
    res.setHeader('X-Closing-Balance', String(first.closingBalance));
    res.write(statementHeaderLines(first));
    try {
      for (;;) {
        res.write(statementMovementLines(page));
        if (page.nextCursor === null) break;
        page = await pageOf(page.nextCursor);
      }
    } catch {
      // Half a statement must not pass for a whole one: the download is cut, and the browser says it failed.
      res.destroy();
      return;
    }
    res.end(statementClosingLine(first));
  });
}

/** The statement's owner refused or failed after the answer began: already answered. */
class StatementAnswered extends Error {}
