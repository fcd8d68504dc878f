import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import {
  adminChangeAnswerSchema,
  authAdminActionPaths,
  authAdminPartnerDetailSchema,
  authAdminPartnerListQuerySchema,
  authAdminPaths,
  authPartnerChangeRequestSchema,
  authPartnerOnboardingAnswerSchema,
  authPartnerOnboardingRequestSchema,
  authPartnerWebhookUrlRequestSchema,
  clientSecretChangeAnswerSchema,
  clientSecretChangeRequestSchema,
  dashboardAdminPaths,
  dashboardFirstAdminInvitationAnswerSchema,
  dashboardFirstAdminInvitationRequestSchema,
  quotesAdminPaths,
  quotesFeeScheduleRequestSchema,
  walletAdminDisbursementSchema,
  walletAdminPaths,
  walletAdminPartnerBalancesSchema,
  walletAdminReadPaths,
  walletAdminTransactionQuerySchema,
  walletAdminTransactionSchema,
  walletDisbursementReversalAnswerSchema,
  walletDisbursementReversalRequestSchema,
  walletLedgerCheckSchema,
  walletTierLimitRequestSchema,
  webhooksAdminDeliveryQuerySchema,
  webhooksAdminDeliverySchema,
  webhooksAdminPaths,
  webhooksAdminRedeliveryAnswerSchema,
  webhooksAdminRedeliveryRequestSchema,
} from '../../src';

/**
 * Every internal admin route the back-office calls is in docs/internal-contracts.md: its path, and
 * every field of its request, query and answer schemas (libs/contracts/src/internal/*-admin.ts,
 * the source of truth), so the document cannot fall behind a contract silently.
 */
const documentation = readFileSync(path.resolve(__dirname, '../../../../docs/internal-contracts.md'), 'utf8');

const paths = [
  ...Object.values(walletAdminPaths),
  walletAdminReadPaths.transactions,
  walletAdminReadPaths.ledgerCheck,
  walletAdminReadPaths.partnerBalances('{partnerId}').replace('%7B', '{').replace('%7D', '}'),
  '/internal/admin/disbursements/{referenceId}',
  ...Object.values(authAdminPaths),
  ...Object.values(authAdminActionPaths),
  '/internal/admin/partners',
  '/internal/admin/partners/{partnerId}',
  '/internal/admin/partners/{partnerId}/client-secrets',
  ...Object.values(quotesAdminPaths),
  ...Object.values(webhooksAdminPaths),
  ...Object.values(dashboardAdminPaths),
];

const schemas: [string, z.ZodObject][] = [
  ['wallet reversal request', walletDisbursementReversalRequestSchema],
  ['wallet reversal answer', walletDisbursementReversalAnswerSchema],
  ['wallet tier limit request', walletTierLimitRequestSchema],
  ['wallet tier limits', walletTierLimitRequestSchema.shape.limits],
  ['wallet disbursement', walletAdminDisbursementSchema],
  ['wallet transaction query', walletAdminTransactionQuerySchema],
  ['wallet transaction', walletAdminTransactionSchema],
  ['wallet partner balances', walletAdminPartnerBalancesSchema],
  ['wallet ledger check', walletLedgerCheckSchema],
  ['admin change answer', adminChangeAnswerSchema],
  ['auth partner change request', authPartnerChangeRequestSchema],
  ['auth onboarding request', authPartnerOnboardingRequestSchema],
  ['auth onboarding answer', authPartnerOnboardingAnswerSchema],
  ['auth onboarded partner', authPartnerOnboardingAnswerSchema.shape.partner],
  ['auth webhook URL request', authPartnerWebhookUrlRequestSchema],
  ['auth partner list query', authAdminPartnerListQuerySchema],
  ['auth partner detail', authAdminPartnerDetailSchema],
  ['auth partner change record', authAdminPartnerDetailSchema.shape.changes.element],
  ['auth operator action record', authAdminPartnerDetailSchema.shape.operatorActions.element],
  ['auth client secret change request', clientSecretChangeRequestSchema],
  ['auth client secret change answer', clientSecretChangeAnswerSchema],
  ['quotes fee schedule request', quotesFeeScheduleRequestSchema],
  ['webhooks delivery query', webhooksAdminDeliveryQuerySchema],
  ['webhooks delivery', webhooksAdminDeliverySchema],
  ['webhooks redelivery request', webhooksAdminRedeliveryRequestSchema],
  ['webhooks redelivery answer', webhooksAdminRedeliveryAnswerSchema],
  ['dashboard first admin invitation request', dashboardFirstAdminInvitationRequestSchema],
  ['dashboard first admin invitation answer', dashboardFirstAdminInvitationAnswerSchema],
];

describe('docs/internal-contracts.md names every admin route of the back-office', () => {
  it.each(paths.map((adminPath) => [adminPath]))('when the document is read, then it names %s', (adminPath) => {
    expect(documentation).toContain(adminPath);
  });

  it.each(schemas)('when the %s schema is read, then every field is named in the document', (_name, schema) => {
    for (const field of Object.keys(schema.shape)) expect([field, documentation.includes(field)]).toEqual([field, true]);
  });
});
