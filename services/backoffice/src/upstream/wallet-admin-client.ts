import {
  readContractAnswer,
  walletAdminDisbursementPath,
  walletAdminDisbursementSchema,
  walletAdminPartnerBalancesSchema,
  walletAdminReadPaths,
  walletAdminTransactionPageSchema,
  walletLedgerCheckSchema,
  walletAdminPaths,
  walletAdminRefusalCodes,
  walletDisbursementReversalAnswerSchema,
  walletPartnerFundingAnswerSchema,
  walletPartnerFundingBody,
} from '@pwa/contracts';
import { PkcError, type PkcCode } from '@pwa/errors';
import type { z } from '@pwa/config';
import { createUpstreamClient, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { WalletAdminPort } from '../use-cases/action-executors';
import type { WalletReads } from '../use-cases/console-reads';
import type { DisbursementDirectory } from '../use-cases/four-eyes-requests';
import { executionOfAnswer, finalAdminRefusals, settingsChangeExecution } from './admin-answers';

/** A funding's final refusals: the change routes' and a correction above the partner's balance (PKC_4002). */
const fundingRefusals: ReadonlySet<PkcCode> = new Set<PkcCode>([...Object.values(walletAdminRefusalCodes), ...finalAdminRefusals]);

/**
 * The wallet's admin routes (fundings, reversals, tier limits; libs/contracts wallet-admin) with a
 * deadline and a breaker (libs/http). No answer, a 5xx or an answer outside the contract throws:
 * the request stays approved and the sweep sends it again with the same request id, which the
 * wallet applies once.
 */
export function createWalletAdminClient(settings: UpstreamSettings, logger: Logger): WalletAdminPort & WalletReads & DisbursementDirectory & { shutdown(): void } {
  const wallet = createUpstreamClient({ name: 'wallet', ...settings, logger });
  /** A read the wallet did not answer under its contract: the console says the dependency is away (503), never guesses. */
  const read = async <S extends z.ZodType>(path: string, schema: S, requestId: string | null): Promise<z.output<S>> => {
    const answer = await wallet.get(path, { timeoutMs: settings.timeoutMs, ...(requestId === null ? {} : { requestId }) }).catch((error: unknown) => {
      throw new PkcError('PKC_7003', `The wallet did not answer the read (${error instanceof Error ? error.message : 'no answer'}); try again`);
    });
    const contract = readContractAnswer(answer, schema, new Set());
    if (contract.kind !== 'answer') throw new PkcError('PKC_7003', `The wallet's read answer is outside its contract (${contract.kind === 'outside_contract' ? contract.problem : contract.code}); try again`);
    return contract.data;
  };
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
    searchTransactions: (query, requestId) => {
      const parameters = Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== undefined).map(([name, value]): [string, string] => [name, String(value)]);
      return read(`${walletAdminReadPaths.transactions}?${new URLSearchParams(parameters).toString()}`, walletAdminTransactionPageSchema, requestId);
    },
    disbursementState: async (referenceId, requestId) => {
      const answer = await wallet.get(walletAdminDisbursementPath(referenceId), { timeoutMs: settings.timeoutMs, ...(requestId === null ? {} : { requestId }) });
      const contract = readContractAnswer(answer, walletAdminDisbursementSchema, new Set<PkcCode>(['PKC_6002']));
      if (contract.kind === 'answer') return contract.data.reversalTransactionId === null ? 'reversible' : 'reversed';
      if (contract.kind === 'refusal') return 'unknown';
      throw new Error(`the wallet's disbursement answer is outside its contract: ${contract.problem}`);
    },
    partnerBalances: (partnerId, requestId) => read(walletAdminReadPaths.partnerBalances(partnerId), walletAdminPartnerBalancesSchema, requestId),
    ledgerCheck: (requestId) => read(walletAdminReadPaths.ledgerCheck, walletLedgerCheckSchema, requestId),
    shutdown: () => wallet.shutdown(),
  };
}
