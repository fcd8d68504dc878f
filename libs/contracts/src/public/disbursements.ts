import { z } from 'zod';
import { amountField, currencyField, disbursementReferenceIdField, externalIdField, failureReasonSchema, feeField, instantField, nonNegativeAmountField, pkcCodeField, transactionIdField } from './fields';
import { bulkReferenceIdPattern } from '../bulk-events';
import { pageSchemaOf } from './pagination';
import { transactionListQuerySchemaOf } from './transaction-list-fields';

export const disbursementStatuses = ['pending', 'completed', 'failed'] as const;

export const disbursementReferenceIdParamsSchema = z.object({
  referenceId: z.string().meta({
    param: { description: 'The referenceId the transfer returned (PKD-…).', example: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4' },
  }),
});

export const disbursementTransferSchema = z
  .strictObject({
    referenceId: disbursementReferenceIdField,
    status: z.literal('completed').meta({ description: 'A 200 always means completed: the money has moved.' }),
    transactionId: transactionIdField,
    amount: amountField.meta({ description: 'What the user received.' }),
    currency: currencyField,
    fee: feeField,
    totalDebit: amountField.meta({ description: 'amount + fee, debited from your balance.' }),
  })
  .meta({ id: 'DisbursementTransfer', description: 'A completed transfer: the user’s wallet was credited and your balance debited by totalDebit.' });
export type PublicDisbursementTransfer = z.infer<typeof disbursementTransferSchema>;

export const disbursementStatusSchema = z
  .strictObject({
    referenceId: disbursementReferenceIdField,
    externalId: externalIdField,
    status: z.enum(disbursementStatuses).meta({
      description: 'pending (the outcome is not known yet, after a 500 PKC_7002; it settles on its own), completed (the money moved), failed (no money moved; the externalId is free again).',
      example: 'completed',
    }),
    transactionId: transactionIdField.nullable().meta({ description: 'Set when completed, else null.' }),
    amount: amountField,
    currency: currencyField,
    fee: feeField,
    totalDebit: amountField,
    netAmount: nonNegativeAmountField.meta({ description: 'What the user received: the amount once completed, 0 while pending and when failed.', example: 5000 }),
    createdAt: instantField,
    completedAt: instantField.nullable().meta({ description: 'When the money moved; null unless completed.' }),
    failureCode: pkcCodeField.optional().meta({ description: 'Only when failed: the code the transfer call answered (PKC_4002, PKC_7003, PKC_7004 after the budget ran out, …).', example: 'PKC_4002' }),
    failureReason: failureReasonSchema.optional(),
    bulkId: z.string().regex(bulkReferenceIdPattern).optional().meta({ description: 'Only for a payout of a bulk: the bulk’s id (PKB-…).', example: 'PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D' }),
  })
  .meta({ id: 'DisbursementStatus', description: 'A disbursement as it is now, whatever became of it. Failed ones add failureCode and failureReason.' });
export type PublicDisbursementStatus = z.infer<typeof disbursementStatusSchema>;

export const disbursementTransferExample: PublicDisbursementTransfer = {
  referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4',
  status: 'completed',
  transactionId: 'TXN-8D41E6B09A2C7F35',
  amount: 5000,
  currency: 'LRD',
  fee: 100,
  totalDebit: 5100,
};

export const disbursementStatusExample: PublicDisbursementStatus = {
  referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4',
  externalId: 'payout-2002',
  status: 'completed',
  transactionId: 'TXN-8D41E6B09A2C7F35',
  amount: 5000,
  currency: 'LRD',
  fee: 100,
  totalDebit: 5100,
  netAmount: 5000,
  createdAt: '2024-06-10T06:13:20.000Z',
  completedAt: '2024-06-10T06:13:20.412Z',
};

export const failedDisbursementStatusExample: PublicDisbursementStatus = {
  referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4',
  externalId: 'payout-2002',
  status: 'failed',
  transactionId: null,
  amount: 5000,
  currency: 'LRD',
  fee: 100,
  totalDebit: 5100,
  netAmount: 0,
  createdAt: '2024-06-10T06:13:20.000Z',
  completedAt: null,
  failureCode: 'PKC_4002',
  failureReason: { code: 'PKC_4002', message: 'Partner balance insufficient for amount plus fee' },
};

// ---- GET /partner/v1/disbursements (issue 18) --------------------------------------------------

/** The disbursements list's query: status, currency, externalId, createdFrom, createdTo, limit, cursor. */
export const disbursementListQuerySchema = transactionListQuerySchemaOf(disbursementStatuses, 'disbursement');
export type DisbursementListQuery = z.output<typeof disbursementListQuerySchema>;

export const disbursementPageSchema = pageSchemaOf(disbursementStatusSchema, 'DisbursementPage', 'A page of your disbursements, newest first; each item is what GET /disbursement/{referenceId} answers.');
export type PublicDisbursementPage = z.infer<typeof disbursementPageSchema>;

export const disbursementPageExample: PublicDisbursementPage = {
  items: [
    { ...failedDisbursementStatusExample, referenceId: 'PKD-1718000900000-5C8F20A1B3D4E6F7A8B9C0D1', externalId: 'payout-2003', createdAt: '2024-06-10T06:28:20.000Z' },
    disbursementStatusExample,
  ],
  nextCursor: null,
  hasMore: false,
};
