import {
  walletAdminPaths,
  walletAdminRefusalCodes,
  walletDisbursementReversalAnswerSchema,
  walletPartnerFundingAnswerSchema,
  walletPartnerFundingBody,
} from '@pwa/contracts';
import type { PkcCode } from '@pwa/errors';
import { createUpstreamClient, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { WalletAdminPort } from '../use-cases/action-executors';
import { executionOfAnswer, finalAdminRefusals, settingsChangeExecution } from './admin-answers';

/** A funding's final refusals: the change routes' and a correction above the partner's balance (PKC_4002). */
const fundingRefusals: ReadonlySet<PkcCode> = new Set<PkcCode>([...Object.values(walletAdminRefusalCodes), ...finalAdminRefusals]);

/**
 * The wallet's admin routes (fundings, reversals, tier limits; libs/contracts wallet-admin) with a
 * deadline and a breaker (libs/http). No answer, a 5xx or an answer outside the contract throws:
 * the request stays approved and the sweep sends it again with the same request id, which the
 * wallet applies once.
 */
export function createWalletAdminClient(settings: UpstreamSettings, logger: Logger): WalletAdminPort & { shutdown(): void } {
  const wallet = createUpstreamClient({ name: 'wallet', ...settings, logger });
  const post = (path: string, body: unknown, requestId: string | null) => wallet.post(path, body, { timeoutMs: settings.timeoutMs, ...(requestId === null ? {} : { requestId }) });
  return {
    executeFunding: async (funding, requestId) => {
      const answer = await post(walletAdminPaths.partnerFundings, walletPartnerFundingBody({ ...funding, amountMinor: BigInt(funding.amountMinor) }), requestId);
      return executionOfAnswer('the wallet', answer, walletPartnerFundingAnswerSchema, fundingRefusals, (data) => ({
        kind: 'done',
        result: { transactionId: data.transactionId, replayed: data.replayed, partnerBalanceMinor: data.partnerBalanceMinor.toString() },
      }));
    },
    reverseDisbursement: async (reversal, requestId) => {
      const answer = await post(walletAdminPaths.disbursementReversals, reversal, requestId);
      return executionOfAnswer('the wallet', answer, walletDisbursementReversalAnswerSchema, finalAdminRefusals, (data) => ({
        kind: 'done',
        result: {
          replayed: data.replayed,
          reversalTransactionId: data.reversalTransactionId,
          disbursementTransactionId: data.disbursementTransactionId,
          partnerId: data.partnerId,
          currency: data.currency,
          amountMinor: data.amountMinor.toString(),
          partnerBalanceMinor: data.partnerBalanceMinor.toString(),
        },
      }));
    },
    setTierLimit: async (change, requestId) => settingsChangeExecution('the wallet', await post(walletAdminPaths.tierLimits, change, requestId)),
    shutdown: () => wallet.shutdown(),
  };
}
