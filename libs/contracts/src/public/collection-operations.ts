import { z } from 'zod';
import {
  collectionAcceptedExample,
  collectionAcceptedSchema,
  collectionReferenceIdParamsSchema,
  collectionStatusExample,
  collectionStatusSchema,
  failedCollectionStatusExample,
} from './collections';
import { errorExample, type ErrorExtraFields } from './envelopes';
import { collectionReferenceIdField } from './fields';
import { anyRoute, codes, confirmBody, confirmBodyChecks, example, limitChecks, operationFamily, ownTransactionRead, partnerAccess, permissionAdmission, quoteBody, quoteBodyChecks, quoteUse, userChecks } from './operation-parts';
import { collectionQuoteExample, collectionQuoteSchema } from './quotes';

const collectionRefusalFields: ErrorExtraFields = {
  referenceId: collectionReferenceIdField.meta({ description: 'On 409 PKC_6001: the collection that holds the externalId.' }),
  status: z.enum(['pending_approval', 'completed']).meta({ description: 'On 409 PKC_6001: that collection’s status.' }),
};

/** A collection: its quote, the request the user approves in the app, and its read. */
export const collectionOperations = operationFamily([
  {
    operationId: 'quoteCollection',
    method: 'POST',
    pathTemplate: '/partner/v1/collection/quote',
    tag: 'Quotes',
    summary: 'Quote a collection',
    description:
      'Every check runs here, in a fixed order, and the first failure is the answer: the body, the user, the user’s balance (amount plus fee) and limits. Nothing moves and nothing but the quote is created; no limit is used. The quote is valid 10 minutes for one collection request.',
    ...partnerAccess('collection'),
    request: { body: quoteBody },
    success: { status: 200, description: 'The quote.', schema: collectionQuoteSchema, enveloped: true, examples: { quote: example('25.50 USD from Comfort Gold', collectionQuoteExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, quoteBodyChecks, userChecks, ['PKC_4001'], limitChecks),
  },
  {
    operationId: 'requestCollection',
    method: 'POST',
    pathTemplate: '/partner/v1/collection/request',
    tag: 'Collections',
    summary: 'Request a collection',
    description:
      'Uses a collection quote and asks the user to approve in the wallet app within 10 minutes. Checks, in order: the body (the quote is not touched), the quote (used up whatever happens next), the externalId, then the user and the limits again. Idempotency: an externalId held by a pending or completed collection is 409 PKC_6001 naming it.',
    ...partnerAccess('collection'),
    request: { body: confirmBody },
    success: { status: 202, description: 'The collection waits for the user’s answer.', schema: collectionAcceptedSchema, enveloped: true, examples: { accepted: example('Waiting for Comfort Gold', collectionAcceptedExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, confirmBodyChecks, quoteUse, userChecks, ['PKC_4001'], limitChecks),
    errorFields: collectionRefusalFields,
    errorExamples: {
      PKC_6001: {
        ...errorExample('PKC_6001', { referenceId: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E', status: 'pending_approval' }),
        message: 'externalId already used by collection PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E (status pending_approval)',
      },
    },
  },
  {
    operationId: 'getCollection',
    method: 'GET',
    pathTemplate: '/partner/v1/collection/:referenceId',
    tag: 'Collections',
    summary: 'Read a collection',
    description: 'The collection as it is now; for polling when you do not use webhooks, and the source of truth when in doubt. Another partner’s collection is 403 PKC_6005.',
    ...partnerAccess('collection'),
    request: { params: collectionReferenceIdParamsSchema },
    success: {
      status: 200,
      description: 'The collection.',
      schema: collectionStatusSchema,
      enveloped: true,
      examples: { completed: example('Completed: the money moved', collectionStatusExample), failed: example('Failed after the user approved', failedCollectionStatusExample) },
    },
    errorCodes: codes(anyRoute, permissionAdmission, ownTransactionRead),
  },
]);
