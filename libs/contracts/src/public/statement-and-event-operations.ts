import { anyRoute, bearerAdmission, codes, example, operationFamily, partnerAccess } from './operation-parts';
import { partnerEventExample, partnerEventListQuerySchema, partnerEventPageExample, partnerEventPageSchema, partnerEventParamsSchema, partnerEventRetentionDays, partnerEventSchema } from './partner-event-log';
import { statementCsvExample, statementCsvSchema, statementPageExample, statementPageSchema, statementPeriodDaysMax, statementQuerySchema } from './statement';

/** The partner statement from the ledger (GET /partner/v1/statement) and the events list (GET /partner/v1/events, GET /partner/v1/events/{eventId}). */
export const statementAndEventOperations = operationFamily([
  {
    operationId: 'getStatement',
    method: 'GET',
    pathTemplate: '/partner/v1/statement',
    tag: 'Statements',
    summary: 'Get your account statement',
    description: `Your partner account’s movements in one currency from \`from\` (inclusive) to \`to\` (exclusive, at most ${statementPeriodDaysMax} days later), in posting order, read from the ledger itself: the opening balance (just before from), every movement with the balance after it, and the closing balance (at to, or now). Opening balance plus the sum of the amounts is the closing balance; with to in the future, the closing balance is GET /balance’s. Paginated with a cursor (opening and closing balance on every page). \`Accept: text/csv\` (or \`format=csv\`) answers the same page as RFC 4180 CSV. A missing or bad currency, from, to (after from, at most ${statementPeriodDaysMax} days), limit or cursor is 400 PKC_2008 naming it.`,
    ...partnerAccess(null),
    request: { query: statementQuerySchema },
    success: {
      status: 200,
      description: 'A page of the statement.',
      schema: statementPageSchema,
      enveloped: true,
      examples: { page: example('A disbursement and its fee', statementPageExample) },
      otherMediaTypes: {
        'text/csv': { schema: statementCsvSchema, description: 'With Accept: text/csv or format=csv: the same page as CSV.', example: statementCsvExample },
      },
    },
    errorCodes: codes(anyRoute, bearerAdmission),
  },
  {
    operationId: 'listEvents',
    method: 'GET',
    pathTemplate: '/partner/v1/events',
    tag: 'Events',
    summary: 'List your events',
    description: `Every event sent or to be sent to your webhook in the last ${partnerEventRetentionDays} days, oldest first, with the same id and payload (timestamp included) as the webhook, whether or not its delivery succeeded, and also while no webhook URL is registered (those deliveries are skipped). For catching up after an outage. Unknown or invalid query parameters are 400 PKC_2008 naming them.`,
    ...partnerAccess(null),
    request: { query: partnerEventListQuerySchema },
    success: { status: 200, description: 'A page of events.', schema: partnerEventPageSchema, enveloped: true, examples: { page: example('One event', partnerEventPageExample) } },
    errorCodes: codes(anyRoute, bearerAdmission),
  },
  {
    operationId: 'getEvent',
    method: 'GET',
    pathTemplate: '/partner/v1/events/:eventId',
    tag: 'Events',
    summary: 'Get one event',
    description: `One of your events of the last ${partnerEventRetentionDays} days by its id (the webhook-id header). An unknown id, an older one or another partner’s is 404 PKC_6002.`,
    ...partnerAccess(null),
    request: { params: partnerEventParamsSchema },
    success: { status: 200, description: 'The event.', schema: partnerEventSchema, enveloped: true, examples: { event: example('A completed collection', partnerEventExample) } },
    errorCodes: codes(anyRoute, bearerAdmission, ['PKC_6002']),
  },
]);
