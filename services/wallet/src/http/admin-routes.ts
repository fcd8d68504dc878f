import type { Express } from 'express';
import type { z } from '@pwa/config';
import { walletAdminPaths, type walletPartnerFundingAnswerSchema } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { executeAdminPartnerFunding } from '../use-cases/admin-partner-funding';
import { parsePartnerFundingRequest } from './request-schemas';

/**
 * The wallet's admin routes: changes made by people on the back-office with four eyes (decision
 * 0062), on the internal network only; the gateway never routes to them and they are not in the
 * public OpenAPI. Each body names the person who executes the change and the approval (maker and
 * checker); without them it is refused and nothing moves. Contract: libs/contracts
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
}
