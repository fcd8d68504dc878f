/**
 * Steady partner traffic for the fault tests: a few concurrent loops, each doing what a partner's
 * payout worker does, over and over until stopped: a disbursement quote, then the transfer of that
 * quote with a fresh externalId, through the gateway over HTTPS. Every call is recorded with when it
 * started and ended and what it answered (status 0: no answer at all, a transport error or the
 * client's deadline), so a test can say what happened inside and outside a fault window.
 */
import { randomUUID } from 'node:crypto';
import type { HttpsJsonClient, JsonResponse } from './https-client';
import type { WalletUser } from './wallet-users';

export interface TrafficCall {
  kind: 'quote' | 'transfer';
  loop: number;
  startedAtMs: number;
  endedAtMs: number;
  /** The HTTP status, or 0 when nothing answered. */
  status: number;
  /** The envelope's code when the call was refused. */
  code?: string;
  /** Transfers only. */
  externalId?: string;
  /** Transfers: the referenceId the answer named (a 200's data, or a field of a refusal that left a record). */
  referenceId?: string;
  /** The transport error when nothing answered. */
  error?: string;
}

export interface SteadyTrafficOptions {
  client: HttpsJsonClient;
  bearer: string;
  /** One loop per user: loops never contend for the same wallet. */
  users: WalletUser[];
  /** USD per transfer (the minimum is 1). */
  amount: number;
  /** A failed call is followed by this pause, as a partner's worker backs off before trying again. */
  pauseAfterFailureMs: number;
  /** The pause between two flows of a loop: steady traffic, not a load test (the machine is shared). */
  pauseBetweenFlowsMs: number;
}

export interface SteadyTraffic {
  /** Every call so far, in the order they ended. */
  calls: TrafficCall[];
  /** Ends every loop after its call in flight and resolves every call made. */
  stop(): Promise<TrafficCall[]>;
}

export function startSteadyTraffic(options: SteadyTrafficOptions): SteadyTraffic {
  const calls: TrafficCall[] = [];
  let stopping = false;

  const call = async (kind: TrafficCall['kind'], loop: number, send: () => Promise<JsonResponse>, externalId?: string): Promise<JsonResponse | undefined> => {
    const startedAtMs = Date.now();
    try {
      const response = await send();
      const code = response.status === 200 ? undefined : (response.body as { code?: string } | undefined)?.code;
      const referenceId = kind === 'transfer' ? namedReferenceId(response) : undefined;
      calls.push({ kind, loop, startedAtMs, endedAtMs: Date.now(), status: response.status, code, externalId, referenceId });
      return response;
    } catch (error) {
      calls.push({ kind, loop, startedAtMs, endedAtMs: Date.now(), status: 0, externalId, error: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  };

  const runLoop = async (loop: number, user: WalletUser): Promise<void> => {
    while (!stopping) {
      const quote = await call('quote', loop, () =>
        options.client.post('/partner/v1/disbursement/quote', { phone: user.localPhone, amount: options.amount, currency: 'USD' }, { bearer: options.bearer }),
      );
      const quoteId = quote?.status === 200 ? (quote.body as { data?: { quoteId?: string } }).data?.quoteId : undefined;
      if (quoteId === undefined) {
        await pause(options.pauseAfterFailureMs);
        continue;
      }
      const externalId = `steady-${randomUUID()}`;
      const sent = await call('transfer', loop, () => options.client.post('/partner/v1/disbursement/transfer', { quoteId, externalId }, { bearer: options.bearer }), externalId);
      await pause(sent?.status === 200 ? options.pauseBetweenFlowsMs : options.pauseAfterFailureMs);
    }
  };

  const loops = options.users.map((user, loop) => runLoop(loop, user));
  return {
    calls,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
      return calls.slice();
    },
  };
}

export interface CallCounts {
  attempted: number;
  ok: number;
  clientErrors: number;
  serverErrors: number;
  unanswered: number;
}

export function countCalls(calls: TrafficCall[]): CallCounts {
  return {
    attempted: calls.length,
    ok: calls.filter((entry) => entry.status === 200).length,
    clientErrors: calls.filter((entry) => entry.status >= 400 && entry.status < 500).length,
    serverErrors: calls.filter((entry) => entry.status >= 500).length,
    unanswered: calls.filter((entry) => entry.status === 0).length,
  };
}

/** Calls whose time in flight overlaps [fromMs, toMs]. */
export function callsOverlapping(calls: TrafficCall[], fromMs: number, toMs: number): TrafficCall[] {
  return calls.filter((entry) => entry.endedAtMs >= fromMs && entry.startedAtMs <= toMs);
}

/** "kind status code" → count, for failure messages and the printed summary: {"quote 503 PKC_7003": 12}. */
export function failuresByAnswer(calls: TrafficCall[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of calls) {
    if (entry.status === 200) continue;
    const answer = entry.status === 0 ? `no answer (${entry.error ?? 'unknown'})` : `${String(entry.status)} ${entry.code ?? '-'}`;
    const key = `${entry.kind} ${answer}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function namedReferenceId(response: JsonResponse): string | undefined {
  const body = response.body as { data?: { referenceId?: unknown }; referenceId?: unknown } | undefined;
  const named = response.status === 200 ? body?.data?.referenceId : body?.referenceId;
  return typeof named === 'string' ? named : undefined;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
