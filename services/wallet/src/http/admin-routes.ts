import type { Express } from 'express';
import type { z } from '@pwa/config';
import {
  isUuid,
  walletAdminPaths,
  walletAdminReadPaths,
  type walletAdminDisbursementSchema,
  walletAdminTransactionQuerySchema,
  type walletAdminPartnerBalancesSchema,
  type walletAdminTransactionPageSchema,
  walletDisbursementReversalRequestSchema,
  walletTierLimitRequestSchema,
  type adminChangeAnswerSchema,
  type walletDisbursementReversalAnswerSchema,
  type walletPartnerFundingAnswerSchema,
} from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { listPartnerAccounts } from '../store/account-store';
import { findPostedTransfersNamed, findReversalOf } from '../store/reversal-store';
import { searchTransactions } from '../store/transaction-search-store';
import { executeAdminDisbursementReversal } from '../use-cases/admin-disbursement-reversal';
import { executeAdminPartnerFunding } from '../use-cases/admin-partner-funding';
import { executeAdminTierLimit } from '../use-cases/admin-tier-limit';
import { parseAdminRequest, parsePartnerFundingRequest } from './request-schemas';

/**
 * The wallet's admin routes: changes made by people on the back-office with four eyes (decision
 * 0062, 0069), on the internal network only; the gateway never routes to them and they are not in
 * the public OpenAPI. Each body names the person who executes the change and the approval (maker and
 * checker); without them it is refused (400 PKC_2008) and nothing changes. Contract: libs/contracts
 * internal/wallet-admin, described in docs/internal-contracts.md, "Wallet admin HTTP API".
 */
export function mountAdminRoutes(app: Express, pool: Pool): void {
  app.post(walletAdminPaths.partnerFundings, async (req, res) => {
    const outcome = await executeAdminPartnerFunding(pool, parsePartnerFundingRequest(req.body));
    res.json({
      transferId: outcome.transferId,
      transactionId: outcome.transactionId,
      state: 'posted',
      replayed: outcome.replayed,
      partnerBalanceMinor: outcome.partnerBalanceMinor.toString(),
    } satisfies z.input<typeof walletPartnerFundingAnswerSchema>);
  });

  app.post(walletAdminPaths.disbursementReversals, async (req, res) => {
    const outcome = await executeAdminDisbursementReversal(pool, parseAdminRequest(walletDisbursementReversalRequestSchema, req.body));
    res.json({
      ...outcome,
      amountMinor: outcome.amountMinor.toString(),
      partnerBalanceMinor: outcome.partnerBalanceMinor.toString(),
    } satisfies z.input<typeof walletDisbursementReversalAnswerSchema>);
  });

  app.post(walletAdminPaths.tierLimits, async (req, res) => {
    res.json((await executeAdminTierLimit(pool, parseAdminRequest(walletTierLimitRequestSchema, req.body))) satisfies z.input<typeof adminChangeAnswerSchema>);
  });

  // Reads for the back-office console: transactions across partners and a partner's balances.
  app.get(walletAdminReadPaths.transactions, async (req, res) => {
    const query = parseAdminRequest(walletAdminTransactionQuerySchema, req.query);
    if ((query.afterPostedAt === undefined) !== (query.afterId === undefined)) throw new PkcError('PKC_2008', 'afterPostedAt and afterId are given together or not at all');
    res.json((await searchTransactions(pool, query)) satisfies z.input<typeof walletAdminTransactionPageSchema>);
  });

  // The back-office checks a reversal's target when the request is made: a disbursement the ledger knows, not reversed yet.
  app.get('/internal/admin/disbursements/:referenceId', async (req, res) => {
    const [disbursement] = await findPostedTransfersNamed(pool, { referenceId: String(req.params.referenceId) });
    if (disbursement?.kind !== 'disbursement' || disbursement.partnerId === null) throw new PkcError('PKC_6002', 'No completed disbursement has this referenceId');
    const reversal = await findReversalOf(pool, disbursement.transferId);
    res.json({
      referenceId: String(req.params.referenceId),
      transactionId: disbursement.transactionId,
      partnerId: disbursement.partnerId,
      currency: disbursement.currency,
      amountMinor: disbursement.amountMinor.toString(),
      reversalTransactionId: reversal?.transactionId ?? null,
    } satisfies z.input<typeof walletAdminDisbursementSchema>);
  });

  app.get('/internal/admin/partners/:partnerId/balances', async (req, res) => {
    const partnerId = req.params.partnerId;
    if (!isUuid(partnerId)) throw new PkcError('PKC_2008', 'partnerId must be a UUID');
    const accounts = await listPartnerAccounts(pool, partnerId.toLowerCase());
    res.json({
      partnerId: partnerId.toLowerCase(),
      balances: accounts.map((account) => ({ currency: account.currency, balanceMinor: account.balanceMinor.toString() })),
    } satisfies z.input<typeof walletAdminPartnerBalancesSchema>);
  });
}
