import type { AccessTokenResponse } from '../../../../services/auth/src/use-cases/issue-access-token';
import type { StatusView, TransferView } from '../../../../services/disbursements/src/domain/disbursement';
import type { CollectionQuoteView, DisbursementQuoteView } from '../../../../services/quotes/src/domain/quote-views';
import type { AccountView } from '../../../../services/wallet/src/use-cases/look-up-account';
import type { AttemptView, DeliveryView } from '../../../../services/webhooks/src/use-cases/partner-deliveries';
import type { BulkCompletedWebhookPayload, WebhookPayload } from '../../../../services/webhooks/src/domain/webhook-payload';
import { accountStatuses as walletAccountStatuses, kycStatuses as walletKycStatuses } from '../../../../services/wallet/src/domain/user';
import { collectionStatuses as collectionServiceStatuses } from '../../../../services/collections/src/domain/collection-state-machine';
import { deliveredEventTypes } from '../../../../services/webhooks/src/events/subscriptions';
import { deliveryStatuses } from '../../../../services/webhooks/src/store/delivery-store';
import {
  accountStatuses,
  collectionStatuses,
  kycStatuses,
  webhookDeliveryStatuses,
  webhookEventTypes,
  type PublicAccessToken,
  type PublicAccount,
  type PublicCollectionQuote,
  type PublicDisbursementQuote,
  type PublicDisbursementStatus,
  type PublicDisbursementTransfer,
  type PublicWebhookDelivery,
  type bulkCompletedPayloadSchema,
} from '../../src/public';
import type { z } from 'zod';

/**
 * The answers' shapes in the services (their view types) name exactly the fields of the public
 * schemas the OpenAPI document is generated from. These checks are types: `npm run typecheck`
 * fails when a view gains or loses a field the contract does not (the e2e answer validation
 * catches the same at run time, for the views typed as plain records too).
 */
type SameKeys<Left, Right> = [Exclude<keyof Left, keyof Right>, Exclude<keyof Right, keyof Left>] extends [never, never] ? true : { onlyInService: Exclude<keyof Left, keyof Right>; onlyInContract: Exclude<keyof Right, keyof Left> };

const sameFields: Record<string, true> = {
  accessToken: true satisfies SameKeys<AccessTokenResponse, PublicAccessToken>,
  account: true satisfies SameKeys<AccountView, PublicAccount>,
  collectionQuote: true satisfies SameKeys<CollectionQuoteView, PublicCollectionQuote>,
  collectionQuoteRecipient: true satisfies SameKeys<CollectionQuoteView['recipient'], PublicCollectionQuote['recipient']>,
  disbursementQuote: true satisfies SameKeys<DisbursementQuoteView, PublicDisbursementQuote>,
  disbursementQuoteRecipient: true satisfies SameKeys<DisbursementQuoteView['recipient'], PublicDisbursementQuote['recipient']>,
  disbursementTransfer: true satisfies SameKeys<TransferView, PublicDisbursementTransfer>,
  disbursementStatus: true satisfies SameKeys<StatusView, PublicDisbursementStatus>,
  webhookDelivery: true satisfies SameKeys<DeliveryView, PublicWebhookDelivery>,
  webhookDeliveryAttempt: true satisfies SameKeys<AttemptView, PublicWebhookDelivery['attempts'][number]>,
  bulkCompletedWebhookPayload: true satisfies SameKeys<BulkCompletedWebhookPayload, z.infer<typeof bulkCompletedPayloadSchema>>,
  webhookPayload: true satisfies SameKeys<WebhookPayload, { event: 1; referenceId: 1; externalId: 1; amount: 1; currency: 1; fee: 1; status: 1; transactionId: 1; timestamp: 1; failureReason: 1; collectionReferenceId: 1 }>,
};

describe('the public contract and the services', () => {
  test('when the view types are compared with the public schemas, then they name the same fields (checked by the type checker)', () => {
    expect(Object.values(sameFields).every((same) => same)).toBe(true);
  });

  test('when the enumerations are compared, then the contract lists what the services use', () => {
    expect([...webhookEventTypes]).toEqual([...deliveredEventTypes]);
    expect([...webhookDeliveryStatuses]).toEqual([...deliveryStatuses]);
    expect([...accountStatuses]).toEqual([...walletAccountStatuses]);
    expect([...kycStatuses]).toEqual([...walletKycStatuses]);
    // 'processing' is internal: partners see it as pending_approval.
    expect([...collectionStatuses]).toEqual(collectionServiceStatuses.filter((status) => status !== 'processing'));
  });
});
