import { readContractAnswer, walletAdminPaths, walletAdminRefusalCodes, walletPartnerFundingAnswerSchema, walletPartnerFundingBody } from '@pwa/contracts';
import type { PkcCode } from '@pwa/errors';
import { createUpstreamClient, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { ApprovedFunding, FundingExecution, WalletAdmin } from '../use-cases/execute-approved-request';

/**
 * The wallet's refusals that end a request for good: a retry would be refused the same way (its
 * admin refusals, and a body it cannot read, which no resend of the same request would change).
 */
const finalRefusals: ReadonlySet<PkcCode> = new Set<PkcCode>([...Object.values(walletAdminRefusalCodes), 'PKC_2008']);

/**
 * POST /internal/admin/partner-fundings on the wallet with a deadline and a breaker (libs/http).
 * No answer, a 5xx or an answer outside the contract throws: the request stays approved and the
 * sweep sends it again with the same transfer id, which the wallet applies once.
 */
export function createWalletAdminClient(settings: UpstreamSettings, logger: Logger): WalletAdmin & { shutdown(): void } {
  const wallet = createUpstreamClient({ name: 'wallet', ...settings, logger });
  return {
    executeFunding: async (funding: ApprovedFunding, requestId: string | null): Promise<FundingExecution> => {
      const body = walletPartnerFundingBody({ ...funding, amountMinor: BigInt(funding.amountMinor) });
      const answer = await wallet.post(walletAdminPaths.partnerFundings, body, { timeoutMs: settings.timeoutMs, ...(requestId === null ? {} : { requestId }) });
      const read = readContractAnswer(answer, walletPartnerFundingAnswerSchema, finalRefusals);
      if (read.kind === 'answer') return { kind: 'posted', transactionId: read.data.transactionId, replayed: read.data.replayed, partnerBalanceMinor: read.data.partnerBalanceMinor.toString() };
      if (read.kind === 'refusal') return { kind: 'refused', code: read.code, message: read.message ?? read.code };
      throw new Error(`the wallet's admin funding answer is outside its contract: ${read.problem}`);
    },
    shutdown: () => wallet.shutdown(),
  };
}
