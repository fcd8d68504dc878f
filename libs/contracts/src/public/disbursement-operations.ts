import { z } from 'zod';
import {
  disbursementReferenceIdParamsSchema,
  disbursementStatuses,
  disbursementStatusExample,
  disbursementStatusSchema,
  disbursementTransferExample,
  disbursementTransferSchema,
  failedDisbursementStatusExample,
} from './disbursements';
import { errorExample, type ErrorExtraFields } from './envelopes';
import { disbursementReferenceIdField } from './fields';
import { anyRoute, codes, confirmBody, confirmBodyChecks, example, limitChecks, operationFamily, ownTransactionRead, partnerAccess, permissionAdmission, quoteBody, quoteBodyChecks, quoteUse, userChecks } from './operation-parts';
import { disbursementQuoteExample, disbursementQuoteSchema } from './quotes';

const disbursementRefusalFields: ErrorExtraFields = {
  referenceId: disbursementReferenceIdField.meta({ description: 'The disbursement the refusal recorded (a failed attempt, an outcome not known yet) or, on 409 PKC_6001, the one that holds the externalId.' }),
  status: z.enum(disbursementStatuses).meta({ description: 'That disbursement’s status, as the status endpoint shows it.' }),
};

/** A single disbursement: its quote, the transfer that credits the user at once, and its read. */
export const disbursementOperations = operationFamily([
  {
    operationId: 'quoteDisbursement',
    method: 'POST',
    pathTemplate: '/partner/v1/disbursement/quote',
    tag: 'Quotes',
    summary: 'Quote a disbursement',
    description:
      'Every check runs here, in a fixed order, and the first failure is the answer: the body, the recipient, your balance (amount plus fee) and the user’s limits. Nothing moves and nothing but the quote is created. The quote is valid 10 minutes for one transfer.',
    ...partnerAccess('disbursement'),
    request: { body: quoteBody },
    success: { status: 200, description: 'The quote.', schema: disbursementQuoteSchema, enveloped: true, examples: { quote: example('5,000 LRD to Comfort Gold', disbursementQuoteExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, quoteBodyChecks, userChecks, ['PKC_4002'], limitChecks),
  },
  {
    operationId: 'transferDisbursement',
    method: 'POST',
    pathTemplate: '/partner/v1/disbursement/transfer',
    tag: 'Disbursements',
    summary: 'Send money',
    description:
      'Uses a disbursement quote and credits the user at once. The call has 25 seconds; if the money has not moved by then the attempt is cancelled and 504 PKC_7004 answered (nothing was posted; retry with the same externalId and a new quote). Use a client timeout of at least 30 seconds. A refusal after the attempt was recorded names it in referenceId and status. A 500 PKC_7002 naming a referenceId means the outcome is not known yet: read that disbursement until it settles.',
    ...partnerAccess('disbursement'),
    request: { body: confirmBody },
    success: { status: 200, description: 'Completed: the money has moved.', schema: disbursementTransferSchema, enveloped: true, examples: { completed: example('5,000 LRD to Comfort Gold', disbursementTransferExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, confirmBodyChecks, quoteUse, userChecks, ['PKC_4002'], limitChecks, ['PKC_7004']),
    errorFields: disbursementRefusalFields,
    errorExamples: {
      PKC_3002: {
        ...errorExample('PKC_3002', { referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4', status: 'failed' }),
        message: 'User account not active (suspended or closed). Disbursement PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4 is recorded as failed; no money moved',
      },
      PKC_6001: {
        ...errorExample('PKC_6001', { referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4', status: 'completed' }),
        message: 'externalId already used by disbursement PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4 (status completed)',
      },
      PKC_7002: {
        ...errorExample('PKC_7002', { referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4', status: 'pending' }),
        message:
          'The outcome of disbursement PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4 is not known yet; query it with GET /partner/v1/disbursement/PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4. Its externalId stays reserved until it settles',
      },
    },
  },
  {
    operationId: 'getDisbursement',
    method: 'GET',
    pathTemplate: '/partner/v1/disbursement/:referenceId',
    tag: 'Disbursements',
    summary: 'Read a disbursement',
    description: 'Every disbursement your transfer calls created, whatever became of it, for reconciliation. Another partner’s is 403 PKC_6005; an unknown or malformed referenceId 404 PKC_6002.',
    ...partnerAccess('disbursement'),
    request: { params: disbursementReferenceIdParamsSchema },
    success: {
      status: 200,
      description: 'The disbursement.',
      schema: disbursementStatusSchema,
      enveloped: true,
      examples: { completed: example('Completed', disbursementStatusExample), failed: example('Failed: no money moved', failedDisbursementStatusExample) },
    },
    errorCodes: codes(anyRoute, permissionAdmission, ownTransactionRead),
  },
]);
