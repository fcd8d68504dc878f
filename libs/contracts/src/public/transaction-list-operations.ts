import { collectionListQuerySchema, collectionPageExample, collectionPageSchema } from './collections';
import { disbursementListQuerySchema, disbursementPageExample, disbursementPageSchema } from './disbursements';
import { anyRoute, codes, example, operationFamily, partnerAccess, permissionAdmission } from './operation-parts';
import { pageLimitDefault, pageLimitMax } from './pagination';

const listRules = `Newest first (by creation time). Filters combine: status, currency, externalId (exact), createdFrom (inclusive) and createdTo (exclusive). Pages of limit items (1 to ${pageLimitMax}, default ${pageLimitDefault}); pass nextCursor as cursor, with the same filters, for the next page. Keyset pagination: a cursor stays correct while new transactions arrive (they appear on a new first page, never shift the pages you are reading). Unknown or invalid parameters, createdFrom after createdTo, and a cursor that is another partner’s, another list’s, made with other filters or not made by us are 400 PKC_2008 naming the parameter.`;

/** The lists of collections and disbursements (GET /partner/v1/collections, GET /partner/v1/disbursements), cursor-paginated. */
export const transactionListOperations = operationFamily([
  {
    operationId: 'listCollections',
    method: 'GET',
    pathTemplate: '/partner/v1/collections',
    tag: 'Collections',
    summary: 'List your collections',
    description: `Your collection requests, each as GET /collection/{referenceId} answers it (failed ones with failureReason). ${listRules} To find the collection you confirmed with an externalId whose answer you lost, ask with externalId=…: one item, or an empty page when none was created.`,
    ...partnerAccess('collection'),
    request: { query: collectionListQuerySchema },
    success: { status: 200, description: 'A page of collections.', schema: collectionPageSchema, enveloped: true, examples: { page: example('A completed and a failed collection', collectionPageExample) } },
    errorCodes: codes(anyRoute, permissionAdmission),
  },
  {
    operationId: 'listDisbursements',
    method: 'GET',
    pathTemplate: '/partner/v1/disbursements',
    tag: 'Disbursements',
    summary: 'List your disbursements',
    description: `Every disbursement your transfer calls created, each as GET /disbursement/{referenceId} answers it (failed ones with failureCode and failureReason). ${listRules} To find the disbursement of a transfer whose answer you lost, ask with externalId=…: the one it created, or an empty page when none was (then it is safe to send the transfer again with a new quote).`,
    ...partnerAccess('disbursement'),
    request: { query: disbursementListQuerySchema },
    success: { status: 200, description: 'A page of disbursements.', schema: disbursementPageSchema, enveloped: true, examples: { page: example('A failed and a completed disbursement', disbursementPageExample) } },
    errorCodes: codes(anyRoute, permissionAdmission),
  },
]);
