import {
  readContractAnswer,
  walletCheckAnswerSchema,
  walletCheckBody,
  walletPaths,
  walletTransferBatchCheckAnswerSchema,
  walletTransferBatchCheckBody,
  type WalletTransferBatchCheckAnswer,
} from '@pwa/contracts';
import { PkcError, type PkcCode } from '@pwa/errors';
import { createUpstreamClient, type UpstreamAnswer, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { WalletCheckResult } from '../domain/quote';
import type { WalletBatchCheckRequest, WalletChecks } from '../use-cases/wallet-checks';

/**
 * The wallet's refusals a quote answers with as they are: every rule the wallet checks, for either
 * type of quote (3001-3005 account and wallet, 4001 the user's balance for a collection, 4002 the
 * partner's balance for a disbursement, 4003-4012 limits) and 2001 for a phone it cannot read.
 * Quotes is the one caller that passes both balance codes, because it quotes both types.
 */
export const quoteCheckRefusalsPassedOn: ReadonlySet<PkcCode> = new Set<PkcCode>([
  'PKC_2001',
  'PKC_3001', 'PKC_3002', 'PKC_3003', 'PKC_3004', 'PKC_3005',
  'PKC_4001', 'PKC_4002', 'PKC_4003', 'PKC_4004', 'PKC_4005', 'PKC_4006', 'PKC_4007',
  'PKC_4008', 'PKC_4009', 'PKC_4010', 'PKC_4011', 'PKC_4012',
]);

/**
 * POST /internal/checks on the wallet with a deadline, behind a circuit breaker (libs/http). A
 * wallet that gives no answer (transport failure, deadline, 5xx, open breaker) is PKC_7003 at once;
 * a refusal by one of the wallet's rules is an answer, passed on with its code. Checks are
 * read-only, but they are not retried here: the partner's deadline is short and the breaker decides.
 */
export function createWalletClient(settings: UpstreamSettings, logger: Logger): WalletChecks & { shutdown(): void } {
  const wallet = createUpstreamClient({ name: 'wallet', ...settings, logger });
  const post = async (path: string, body: unknown, requestId: string | undefined): Promise<UpstreamAnswer> => {
    try {
      return await wallet.post(path, body, { timeoutMs: settings.timeoutMs, requestId });
    } catch (error) {
      logger.warn({ err: error, path }, 'wallet check failed; answering PKC_7003');
      throw new PkcError('PKC_7003', undefined, { cause: error });
    }
  };
  return {
    check: async (request) => interpret(await post(walletPaths.checks, walletCheckBody(request), request.requestId), logger),
    checkBatch: async (request) =>
      interpretBatch(
        request,
        await post(walletPaths.transferBatchChecks, walletTransferBatchCheckBody({ ...request, type: 'disbursement' }), request.requestId),
        logger,
      ),
    shutdown: () => wallet.shutdown(),
  };
}

function interpret(answer: UpstreamAnswer, logger: Logger): WalletCheckResult {
  const read = readContractAnswer(answer, walletCheckAnswerSchema, quoteCheckRefusalsPassedOn);
  if (read.kind === 'answer') return read.data;
  if (read.kind === 'refusal') throw new PkcError(read.code, read.message);
  logger.error({ status: answer.status, body: answer.body, problem: read.problem }, 'wallet check answer outside the contract');
  throw new PkcError('PKC_7002');
}

/**
 * A batch check answers per item; the call as a whole has no refusal a bulk quote passes on (a
 * malformed batch is this service's bug), so anything but 200 with one result per item is PKC_7002.
 */
function interpretBatch(request: WalletBatchCheckRequest, answer: UpstreamAnswer, logger: Logger): WalletTransferBatchCheckAnswer {
  const read = readContractAnswer(answer, walletTransferBatchCheckAnswerSchema, noBatchRefusalsPassedOn);
  const problem =
    read.kind === 'answer'
      ? read.data.results.length === request.items.length
        ? undefined
        : `${read.data.results.length} results for ${request.items.length} items`
      : read.kind === 'refusal'
        ? `refusal ${read.code}`
        : read.problem;
  if (read.kind === 'answer' && problem === undefined) return read.data;
  logger.error({ status: answer.status, problem }, 'wallet batch check answer outside the contract');
  throw new PkcError('PKC_7002');
}

const noBatchRefusalsPassedOn: ReadonlySet<PkcCode> = new Set<PkcCode>();
