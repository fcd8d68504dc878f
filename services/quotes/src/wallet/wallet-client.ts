import CircuitBreaker from 'opossum';
import { z } from '@pwa/config';
import { PkcError, isPkcCode, type PkcCode } from '@pwa/errors';
import { createInternalJsonClient, type InternalJsonClient, type WatchBreaker } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { WalletCheckResult } from '../domain/quote';
import type { WalletCheckRequest, WalletChecks } from '../use-cases/wallet-checks';

export interface WalletClientSettings {
  baseUrl: string;
  timeoutMs: number;
  breaker: { errorThresholdPercent: number; volumeThreshold: number; resetTimeoutMs: number; rollingWindowMs: number };
  /** Reports the breaker's state as `circuit_breaker_state{breaker="wallet"}`. */
  watchBreaker?: WatchBreaker;
}

/** An answer the wallet gave: its own success or its own refusal. */
interface WalletAnswer {
  status: number;
  body: unknown;
}

/** The wallet could not answer (refused, reset, too slow, or failed on its side); counted by the breaker. */
class WalletUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WalletUnavailableError';
  }
}

/** Codes of the wallet's rules that are the partner's answer as they are (docs/internal-contracts.md). */
const refusalCodesPassedOn = new Set<PkcCode>([
  'PKC_2001',
  'PKC_3001', 'PKC_3002', 'PKC_3003', 'PKC_3004', 'PKC_3005',
  'PKC_4001', 'PKC_4002', 'PKC_4003', 'PKC_4004', 'PKC_4005', 'PKC_4006', 'PKC_4007',
  'PKC_4008', 'PKC_4009', 'PKC_4010', 'PKC_4011', 'PKC_4012',
]);

const minorString = z.string().regex(/^\d{1,18}$/).transform((text) => BigInt(text));
const checkResultSchema = z.object({
  recipient: z.object({
    name: z.string().min(1),
    phone: z.string().min(1),
    accountStatus: z.string().min(1),
    kycStatus: z.string().min(1),
    hasWallet: z.boolean(),
  }),
  userBalanceMinor: minorString,
  partnerBalanceMinor: minorString,
});
const errorEnvelopeSchema = z.object({ success: z.literal(false), code: z.string(), message: z.string().optional() });

/**
 * POST /internal/checks on the wallet with a deadline, behind a circuit breaker. Transport
 * failures, timeouts and the wallet's 5xx count against the breaker and become PKC_7003 at once;
 * while the breaker is open the wallet is not called at all. A refusal by one of the wallet's
 * rules is an answer, not a failure, and is passed on with its code. Checks are read-only, but
 * they are still not retried here: the partner's deadline is short and the breaker decides.
 */
export function createWalletClient(settings: WalletClientSettings, logger: Logger): WalletChecks & { shutdown(): void } {
  const http = createInternalJsonClient({ baseUrl: settings.baseUrl });
  const breaker = new CircuitBreaker<[WalletCheckRequest], WalletAnswer>(
    (request) => postCheck(http, request, settings.timeoutMs),
    {
      name: 'wallet',
      timeout: false, // the client's own deadline enforces the timeout and frees the socket
      errorThresholdPercentage: settings.breaker.errorThresholdPercent,
      volumeThreshold: settings.breaker.volumeThreshold,
      resetTimeout: settings.breaker.resetTimeoutMs,
      rollingCountTimeout: settings.breaker.rollingWindowMs,
    },
  );
  breaker.on('open', () => logger.warn('wallet circuit opened: quotes fail fast with PKC_7003'));
  breaker.on('close', () => logger.info('wallet circuit closed'));
  settings.watchBreaker?.('wallet', breaker);

  return {
    check: async (request) => {
      let answer: WalletAnswer;
      try {
        answer = await breaker.fire(request);
      } catch (error) {
        logger.warn({ err: error }, 'wallet check failed; answering PKC_7003');
        throw new PkcError('PKC_7003', undefined, { cause: error });
      }
      return interpret(answer, logger);
    },
    shutdown: () => {
      breaker.shutdown();
      http.close();
    },
  };
}

async function postCheck(http: InternalJsonClient, request: WalletCheckRequest, timeoutMs: number): Promise<WalletAnswer> {
  const body = {
    type: request.type,
    partnerId: request.partnerId,
    phone: request.phone,
    currency: request.currency,
    amountMinor: request.amountMinor.toString(),
    feeMinor: request.feeMinor.toString(),
  };
  let response;
  try {
    response = await http.postJson('/internal/checks', body, { timeoutMs, requestId: request.requestId });
  } catch (error) {
    throw new WalletUnavailableError(`wallet did not answer within ${timeoutMs} ms or refused the connection`, { cause: error });
  }
  if (response.status >= 500) throw new WalletUnavailableError(`wallet answered ${response.status}: ${response.text.slice(0, 200)}`);
  if (response.body === undefined) throw new WalletUnavailableError(`wallet answered ${response.status} without JSON`);
  return { status: response.status, body: response.body };
}

function interpret(answer: WalletAnswer, logger: Logger): WalletCheckResult {
  if (answer.status === 200) {
    const parsed = checkResultSchema.safeParse(answer.body);
    if (parsed.success) return parsed.data;
    logger.error({ issues: parsed.error.issues }, 'wallet check answer does not match the contract');
    throw new PkcError('PKC_7002');
  }
  const refusal = errorEnvelopeSchema.safeParse(answer.body);
  if (refusal.success && isPkcCode(refusal.data.code) && refusalCodesPassedOn.has(refusal.data.code)) {
    throw new PkcError(refusal.data.code, refusal.data.message);
  }
  logger.error({ status: answer.status, body: answer.body }, 'wallet check refused with an answer outside the contract');
  throw new PkcError('PKC_7002');
}
