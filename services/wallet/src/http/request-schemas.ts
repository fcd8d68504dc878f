import type { z } from '@pwa/config';
import {
  uuidField,
  walletCheckRequestSchema,
  walletPartnerFundingRequestSchema,
  walletTransferBatchCheckRequestSchema,
  walletTransferBatchRequestSchema,
  walletTransferRequestSchema,
  type WalletPartnerFundingRequest,
} from '@pwa/contracts';
import { PkcError, echoInput } from '@pwa/errors';
import { normaliseLiberianPhone } from '@pwa/phone';
import type { TransferCheckRequest } from '../use-cases/check-transfer';
import type { TransferRequest } from '../use-cases/post-transfer';
import type { TransferBatchRequest } from '../use-cases/post-transfer-batch';
import type { TransferBatchCheckRequest } from '../use-cases/check-transfer-batch';

/**
 * Bodies of the internal API, parsed with the wallet's own contract (libs/contracts internal/wallet,
 * which every caller builds its bodies with). Amounts are strings of minor units ("1050"), never
 * JSON numbers. Anything malformed is 400 PKC_2008; a phone that is not a Liberian mobile number is
 * 400 PKC_2001, as on the public API.
 */
export function parseCheckRequest(body: unknown): TransferCheckRequest {
  const parsed = parseOrRefuse(walletCheckRequestSchema, body);
  return { ...parsed, phone: normalisedPhone(parsed.phone) };
}

export function parseTransferRequest(body: unknown): TransferRequest {
  const parsed = parseOrRefuse(walletTransferRequestSchema, body);
  return { ...parsed, phone: normalisedPhone(parsed.phone), reference: parsed.reference ?? null };
}

/**
 * A batch's body: malformed as a whole (400 PKC_2008, nothing posted) or parsed item by item. A
 * phone that is not Liberian is left undefined: that item alone is refused PKC_2001, because one
 * bad item never fails its batch (decision 0054).
 */
export function parseTransferBatchRequest(body: unknown): TransferBatchRequest {
  const parsed = parseOrRefuse(walletTransferBatchRequestSchema, body);
  return {
    partnerId: parsed.partnerId,
    currency: parsed.currency,
    type: parsed.type,
    items: parsed.items.map((item) => ({
      transferId: item.transferId,
      phone: normaliseLiberianPhone(item.phone),
      amountMinor: item.amountMinor,
      feeMinor: item.feeMinor,
      reference: item.reference ?? null,
      referenceId: item.referenceId ?? null,
      externalId: item.externalId ?? null,
    })),
  };
}

/**
 * A batch check's body (up to 1,000 items): malformed as a whole (400 PKC_2008) or parsed item by
 * item; a phone that is not Liberian is left undefined and refuses its item alone (PKC_2001).
 */
export function parseTransferBatchCheckRequest(body: unknown): TransferBatchCheckRequest {
  const parsed = parseOrRefuse(walletTransferBatchCheckRequestSchema, body);
  return {
    partnerId: parsed.partnerId,
    currency: parsed.currency,
    type: parsed.type,
    items: parsed.items.map((item) => ({ phone: normaliseLiberianPhone(item.phone), amountMinor: item.amountMinor, feeMinor: item.feeMinor })),
  };
}

/**
 * The body of POST /internal/admin/partner-fundings (libs/contracts wallet-admin): strict, so a
 * body without the acting person or the approval, or with a field the contract does not name, is
 * 400 PKC_2008 naming the fields. The four-eyes rules themselves are the use case's (403 PKC_6005).
 */
export function parsePartnerFundingRequest(body: unknown): WalletPartnerFundingRequest {
  return parseOrRefuse(walletPartnerFundingRequestSchema, body);
}

/** An admin change's body (libs/contracts wallet-admin): without the actor or the approval it is 400 PKC_2008 and nothing changes. */
export function parseAdminRequest<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  return parseOrRefuse(schema, body);
}

export function parseTransferId(text: string): string {
  return parseOrRefuse(uuidField, text);
}

function normalisedPhone(text: string): string {
  const phone = normaliseLiberianPhone(text);
  if (phone === undefined) throw new PkcError('PKC_2001');
  return phone;
}

function parseOrRefuse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  // Field names come from the schema, but a message may still carry a client's text: cap each.
  const problems = parsed.error.issues.slice(0, 10).map((issue) => `${echoInput(issue.path.join('.') || 'body')}: ${echoInput(issue.message)}`);
  throw new PkcError('PKC_2008', `Malformed request: ${problems.join('; ')}`);
}
