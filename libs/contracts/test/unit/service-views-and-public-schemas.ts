import type { AccessTokenResponse } from '../../../../services/auth/src/use-cases/issue-access-token';
import type { StatusView, TransferView } from '../../../../services/disbursements/src/domain/disbursement';
import type { CollectionQuoteView, DisbursementQuoteView } from '../../../../services/quotes/src/domain/quote-views';
import type { AccountView } from '../../../../services/wallet/src/use-cases/look-up-account';
import type { AttemptView, DeliveryView } from '../../../../services/webhooks/src/use-cases/partner-deliveries';
import type { BulkCompletedWebhookPayload, WebhookPayload } from '../../../../services/webhooks/src/domain/webhook-payload';
import type {
  PublicAccessToken,
  PublicAccount,
  PublicCollectionQuote,
  PublicDisbursementQuote,
  PublicDisbursementStatus,
  PublicDisbursementTransfer,
  PublicWebhookDelivery,
  bulkCompletedPayloadSchema,
} from '../../src/public';
import type { z } from 'zod';

/**
 * The answers' shapes in the services (their view types) name exactly the fields of the public
 * schemas the OpenAPI document is generated from. These are types only: the type checker refuses
 * this file when a view gains or loses a field the contract does not, and its message names the
 * fields (onlyInService, onlyInContract). public-contract-sources.test.ts runs the type checker on
 * this file, so the check holds under jest alone too, not only under `npm run typecheck`.
 */
type SameKeys<Left, Right> = [Exclude<keyof Left, keyof Right>, Exclude<keyof Right, keyof Left>] extends [never, never] ? true : { onlyInService: Exclude<keyof Left, keyof Right>; onlyInContract: Exclude<keyof Right, keyof Left> };

/** Refused by the type checker unless its argument is `true`. */
type Same<Verdict extends true> = Verdict;

export interface ServiceViewsNameThePublicFields {
  accessToken: Same<SameKeys<AccessTokenResponse, PublicAccessToken>>;
  account: Same<SameKeys<AccountView, PublicAccount>>;
  collectionQuote: Same<SameKeys<CollectionQuoteView, PublicCollectionQuote>>;
  collectionQuoteRecipient: Same<SameKeys<CollectionQuoteView['recipient'], PublicCollectionQuote['recipient']>>;
  disbursementQuote: Same<SameKeys<DisbursementQuoteView, PublicDisbursementQuote>>;
  disbursementQuoteRecipient: Same<SameKeys<DisbursementQuoteView['recipient'], PublicDisbursementQuote['recipient']>>;
  disbursementTransfer: Same<SameKeys<TransferView, PublicDisbursementTransfer>>;
  disbursementStatus: Same<SameKeys<StatusView, PublicDisbursementStatus>>;
  webhookDelivery: Same<SameKeys<DeliveryView, PublicWebhookDelivery>>;
  webhookDeliveryAttempt: Same<SameKeys<AttemptView, PublicWebhookDelivery['attempts'][number]>>;
  bulkCompletedWebhookPayload: Same<SameKeys<BulkCompletedWebhookPayload, z.infer<typeof bulkCompletedPayloadSchema>>>;
  webhookPayload: Same<SameKeys<WebhookPayload, { event: 1; referenceId: 1; externalId: 1; amount: 1; currency: 1; fee: 1; status: 1; transactionId: 1; timestamp: 1; failureReason: 1; collectionReferenceId: 1; reversal: 1 }>>;
}
