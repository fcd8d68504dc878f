// Flows benchmark: complete partner flows through the gateway, as a partner's integration would
// drive them in the sandbox, each connection looping one flow with its requests in sequence:
//
//   disbursement  POST disbursement/quote -> POST disbursement/transfer (quoteId, fresh externalId)
//   collection    POST collection/quote -> POST collection/request (quoteId, fresh externalId)
//                 -> POST sandbox/collection/:referenceId/approve (the money moves)
//
// The load generator is autocannon with per-connection request sequences, the same tool and the
// same shape as the shared reference's load.js (quote, then transfer with that quote), so the
// ratio flows/s / reference flows/s compares like with like. A flow counts when its last step
// answers 2xx with status "completed". Each step's latency is kept exactly (fractional ms) per
// step and overall: autocannon calls the step's onResponse and then, synchronously, emits
// 'response' with that request's latency, so the step is known when the latency arrives.
//
// The stack is the quote benchmark's (quote.ts), started fresh on free ports with a throw-away
// database, with collections and disbursements too, configured as npm start runs its stack by
// default (configuration.ts: each service its own database role, the webhooks service, npm start's
// webhook receiver taking the partner's webhooks) or as in bench-legacy, ENVIRONMENT=sandbox
// (the approve step is the sandbox simulation endpoint), one partner whose rate limit never trips
// and with lots of funds in both currencies, N Platinum users (64 by default) with both wallets
// credited, and the Platinum limits raised (amounts and per-hour/per-day counts: completed flows
// use them up). Flows are spread round-robin over every user x currency. Every call is the one
// partner's, so its two float accounts (USD, LRD) take every disbursement's debit; oneAccountFlows
// narrows the targets to one currency, so every call debits one row (the hot-row case, issue 20).
// The bulk benchmark (bulk.ts) reuses this stack and measureFlow.
import autocannon from 'autocannon';
import { Pool } from 'pg';
import { parseJson, asRecord, sleep } from '../lib/http';
import type { InternalServiceName } from '../lib/settings';
import { benchCpuMeter, guardAgainstDeath, stopBenchStack, webhookReceiverProcessName, type Log } from './bench-stack';
import type { BenchConfiguration } from './configuration';
import { cpuMsPer, machineBusySeconds, totalSeconds, type CpuSeconds } from './cpu';
import { LatencySamples, format, mean } from './measure';
import type { BenchOptions } from './options';
import { quoteAmounts, startQuoteStack, type Currency, type QuoteBenchStack } from './quote';
import type { ReferenceResult } from './reference';

/** Enough for hours of flows at thousands per second (a disbursement debits the partner amount + fee). */
export const flowPartnerFunding: Readonly<Record<Currency, string>> = { USD: '100000000.00', LRD: '18500000000.00' };
const flowServices: readonly InternalServiceName[] = ['auth', 'wallet', 'quotes', 'collections', 'disbursements'];

/** The internal services of the flows stack: the flows' own, and webhooks when the configuration runs it. */
function flowStackServices(configuration: BenchConfiguration): InternalServiceName[] {
  return configuration.webhooksService === 'on' ? [...flowServices, 'webhooks'] : [...flowServices];
}

/** The processes of the flows stack whose CPU a measurement meters. */
export function flowProcessNames(configuration: BenchConfiguration): string[] {
  return [...flowStackServices(configuration), 'gateway', ...(configuration.webhookReceiver === 'on' ? [webhookReceiverProcessName] : [])];
}
/**
 * autocannon stops at the deadline with requests still in the services; they finish within about a
 * second at this load. Waiting this long after a measurement keeps their work out of the next one
 * (and out of the shutdown's logs).
 */
export const drainMs = 2_000;

export type FlowName = 'disbursement' | 'collection';
export const flowNames: readonly FlowName[] = ['disbursement', 'collection'];

export interface FlowTarget {
  phone: string;
  currency: Currency;
}

/** What one flow carries from step to step. */
export interface FlowContext {
  target: FlowTarget;
  quoteId?: string;
  referenceId?: string;
}

/**
 * One step of a flow: its path (from the flow context), its body, the status it must answer, and
 * what it takes from the answer's data into the context for the next step (false: the flow failed).
 */
export interface FlowStep {
  name: string;
  status: number;
  path(ctx: FlowContext): string;
  body?(ctx: FlowContext): string;
  take(data: Record<string, unknown>, ctx: FlowContext): boolean;
}

const quoteBody = (target: FlowTarget): string => JSON.stringify({ phone: target.phone, amount: quoteAmounts[target.currency].api, currency: target.currency });

/** The two flows' steps; externalId() gives each transfer and request a fresh one. */
export function flowDefinitions(externalId: () => string): Record<FlowName, FlowStep[]> {
  const completed = (data: Record<string, unknown>): boolean => data.status === 'completed';
  const takeText = (value: unknown, set: (text: string) => void): boolean => {
    if (typeof value !== 'string' || !value) return false;
    set(value);
    return true;
  };
  const quote = (flow: FlowName): FlowStep => ({
    name: 'quote',
    status: 200,
    path: () => `/partner/v1/${flow}/quote`,
    body: (ctx) => quoteBody(ctx.target),
    take: (data, ctx) => takeText(data.quoteId, (quoteId) => (ctx.quoteId = quoteId)),
  });
  return {
    disbursement: [
      quote('disbursement'),
      {
        name: 'transfer',
        status: 200,
        path: () => '/partner/v1/disbursement/transfer',
        body: (ctx) => JSON.stringify({ quoteId: ctx.quoteId, externalId: externalId(), note: 'bench' }),
        take: completed,
      },
    ],
    collection: [
      quote('collection'),
      {
        name: 'request',
        status: 202,
        path: () => '/partner/v1/collection/request',
        body: (ctx) => JSON.stringify({ quoteId: ctx.quoteId, externalId: externalId(), note: 'bench' }),
        take: (data, ctx) => takeText(data.referenceId, (referenceId) => (ctx.referenceId = referenceId)),
      },
      // No body: the sandbox endpoints take none (docs/partner-guide.md, "Sandbox testing").
      { name: 'approve', status: 200, path: (ctx) => `/partner/v1/sandbox/collection/${encodeURIComponent(ctx.referenceId ?? '')}/approve`, take: completed },
    ],
  };
}

export interface FlowsBenchStack extends QuoteBenchStack {
  flowTargets: FlowTarget[];
  nextTarget: number;
  externalSeq: number;
}

/** The next user x currency of the round-robin. */
export function nextFlowTarget(stack: FlowsBenchStack): FlowTarget {
  const target = stack.flowTargets[stack.nextTarget % stack.flowTargets.length];
  stack.nextTarget += 1;
  if (target === undefined) throw new Error('no flow targets');
  return target;
}

interface StepLatency {
  p50Ms: number | null;
  p99Ms: number | null;
  ok: number;
}

export interface FlowMeasurement {
  flowsPerSecond: number;
  flows: number;
  started: number;
  p50Ms: number | null;
  p99Ms: number | null;
  steps: Record<string, StepLatency>;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  unexpected: number;
  firstFailure: string | undefined;
  durationSeconds: number;
}

/** Autocannon's per-connection context, where the flow's own context lives. */
interface ConnectionContext extends autocannon.RequestContext {
  flow?: FlowContext;
  ok?: boolean;
}

/** Drives one flow for `durationSeconds` with `connections` connections; each connection loops the flow's steps in order. */
export function measureFlow(stack: FlowsBenchStack, flowName: FlowName, { connections, durationSeconds }: { connections: number; durationSeconds: number }): Promise<FlowMeasurement> {
  const steps = flowDefinitions(() => `bench-${stack.runId}-${(stack.externalSeq += 1)}`)[flowName];
  const all = new LatencySamples();
  const perStep = steps.map(() => new LatencySamples());
  let answered: { index: number; ok: boolean } | undefined; // the step whose answer autocannon is about to report ('response' follows onResponse synchronously)
  let flows = 0;
  let started = 0;
  let unexpected = 0;
  let firstFailure: string | undefined;
  const fail = (message: string): void => {
    firstFailure ??= message;
  };
  const authorization = stack.headers.authorization ?? '';
  const requests = steps.map((step, index): autocannon.Request => ({
    method: 'POST',
    setupRequest: (request, context) => {
      const connection = context as ConnectionContext;
      if (index === 0) {
        connection.flow = { target: nextFlowTarget(stack) };
        started += 1;
      } else if (!connection.ok || !connection.flow) {
        return null; // the previous step failed: autocannon restarts the sequence at the quote
      }
      const body = step.body ? step.body(connection.flow) : undefined;
      const headers: Record<string, string> = body === undefined ? { authorization } : { authorization, 'content-type': 'application/json' };
      return { ...request, path: `/api/v1${step.path(connection.flow)}`, headers, ...(body === undefined ? {} : { body }) };
    },
    onResponse: (status, body, context) => {
      const connection = context as ConnectionContext;
      answered = { index, ok: status >= 200 && status < 300 };
      connection.ok = false;
      if (status !== step.status) {
        if (answered.ok) unexpected += 1; // another 2xx than the contract's
        fail(`${flowName} ${step.name}: HTTP ${status} ${String(body).slice(0, 300)}`);
        return;
      }
      const data = asRecord(asRecord(parseJson(body))?.data);
      if (!data || !connection.flow || !step.take(data, connection.flow)) {
        unexpected += 1;
        fail(`${flowName} ${step.name}: unexpected answer ${String(body).slice(0, 300)}`);
        return;
      }
      connection.ok = true;
      if (index === steps.length - 1) flows += 1;
    },
  }));
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: stack.gatewayBaseUrl,
        connections,
        duration: durationSeconds,
        pipelining: 1,
        timeout: 30, // the transfer's own budget is 25 s (docs/partner-guide.md)
        requests,
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const percentiles = (samples: LatencySamples): StepLatency => {
          const { 50: p50Ms, 99: p99Ms } = samples.percentiles([50, 99]);
          return { p50Ms, p99Ms, ok: samples.count };
        };
        resolve({
          flowsPerSecond: flows / result.duration,
          flows,
          started,
          ...percentiles(all),
          steps: Object.fromEntries(steps.map((step, index) => [step.name, percentiles(perStep[index] ?? new LatencySamples())])),
          requests: all.count,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          unexpected,
          firstFailure,
          durationSeconds: result.duration,
        });
      },
    );
    instance.on('response', (_client, _statusCode, _bytes, responseTimeMs) => {
      const step = answered;
      answered = undefined;
      if (!step || !step.ok) return;
      all.add(responseTimeMs);
      perStep[step.index]?.add(responseTimeMs);
    });
    instance.on('reqError', (error) => fail(error.message));
  });
}

export type FlowRound = FlowMeasurement & { cpuSeconds: CpuSeconds; ourCores: number; otherCores: number | null };

/** CPU milliseconds per completed flow, per process, over some rounds. */
function cpuPerFlow(results: readonly FlowRound[]): Record<string, number> {
  return cpuMsPer(
    results,
    results.reduce((sum, result) => sum + result.flows, 0),
  );
}

export interface FlowSummary {
  flowsPerSecond: number | null;
  runs: number[];
  flows: number;
  p50Ms: number | null;
  p99Ms: number | null;
  steps: Record<string, { p50Ms: number | null; p99Ms: number | null }>;
  non2xx: number;
  errors: number;
  unexpected: number;
  firstFailure: string | undefined;
  cpu: Record<string, number>;
  ourCores: number | null;
  otherCores: number | null;
}

/** Means over rounds (percentiles: the mean of each round's, as the other benchmarks do); failure counts summed. */
function summariseFlow(results: readonly FlowRound[]): FlowSummary {
  const stepNames = Object.keys(results[0]?.steps ?? {});
  return {
    flowsPerSecond: mean(results.map((result) => result.flowsPerSecond)),
    runs: results.map((result) => result.flowsPerSecond),
    flows: results.reduce((sum, result) => sum + result.flows, 0),
    p50Ms: mean(results.map((result) => result.p50Ms)),
    p99Ms: mean(results.map((result) => result.p99Ms)),
    steps: Object.fromEntries(
      stepNames.map((name) => [name, { p50Ms: mean(results.map((result) => result.steps[name]?.p50Ms)), p99Ms: mean(results.map((result) => result.steps[name]?.p99Ms)) }]),
    ),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
    unexpected: results.reduce((sum, result) => sum + result.unexpected, 0),
    firstFailure: results.map((result) => result.firstFailure).find((failure) => failure !== undefined),
    cpu: cpuPerFlow(results),
    ourCores: mean(results.map((result) => result.ourCores)),
    otherCores: mean(results.map((result) => result.otherCores)),
  };
}

export interface PgWaits {
  samples: number;
  states: { what: string; sessions: number }[];
  lock_waits: { what: string; sessions: number }[];
}

/**
 * --pg-waits: samples pg_stat_activity every 100 ms during the measured rounds and tallies, per
 * service (application_name), what its busy sessions were doing: running, waiting for a lock
 * (which statement), or "idle in transaction" (the service holds a transaction open and Postgres
 * waits for its next statement). Averages are sessions at a time; this is where a flow's time goes
 * when it is not CPU. Off by default: its query costs a little Postgres CPU.
 */
export function pgWaitSampler(monitor: Pool): { start(): void; stop(): void; report(): PgWaits } {
  const states = new Map<string, number>();
  const statements = new Map<string, number>();
  let samples = 0;
  let timer: NodeJS.Timeout | undefined;
  let busy = false;
  const add = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);
  const sample = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      const result = await monitor.query<{ service: string; state: string; wait: string; statement: string }>(
        `SELECT application_name AS service, state, coalesce(wait_event_type || ':' || wait_event, 'cpu') AS wait,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS statement
           FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`,
      );
      samples += 1;
      for (const row of result.rows) {
        const service = row.service || '?';
        add(states, `${service} | ${row.state === 'active' ? `active, ${row.wait}` : `${row.state} (waiting for the service)`}`);
        if (row.state === 'active' && row.wait.startsWith('Lock:')) add(statements, `${service} | ${row.wait} | ${row.statement}`);
      }
    } catch {
      // a missed sample
    } finally {
      busy = false;
    }
  };
  return {
    start: () => {
      timer = setInterval(() => void sample(), 100);
    },
    stop: () => clearInterval(timer),
    report: () => {
      const top = (map: Map<string, number>, count: number): { what: string; sessions: number }[] =>
        [...map.entries()]
          .sort((left, right) => right[1] - left[1])
          .slice(0, count)
          .map(([key, value]) => ({ what: key, sessions: Number((value / Math.max(1, samples)).toFixed(2)) }));
      return { samples, states: top(states, 15), lock_waits: top(statements, 8) };
    },
  };
}

/**
 * The flows benchmark's stack (quote.ts startQuoteStack with collections and disbursements, and
 * webhooks and npm start's receiver when the configuration has them; sandbox), with the flows' targets.
 */
export async function startFlowsStack(
  options: Pick<BenchOptions, 'cpuProfile' | 'configuration'>,
  { log, users, databaseName = 'partner_wallet_bench_flows' }: { log: Log; users: number; databaseName?: string },
): Promise<FlowsBenchStack> {
  const { configuration } = options;
  const stack = await startQuoteStack({
    log,
    configuration,
    users,
    cpuProfile: options.cpuProfile,
    services: flowStackServices(configuration),
    ...(configuration.webhookReceiver === 'on' ? { webhooks: 'npm-start-receiver' as const } : {}),
    databaseName,
    environment: 'sandbox',
    funding: flowPartnerFunding,
  });
  return withFlowTargets(stack);
}

/** A quote stack that drives flows, spread round-robin over every user x currency. */
export function withFlowTargets(stack: QuoteBenchStack): FlowsBenchStack {
  const flowTargets = (['LRD', 'USD'] as const).flatMap((currency) => stack.phones.map((phone) => ({ phone, currency })));
  return { ...stack, flowTargets, nextTarget: 0, externalSeq: 0 };
}

/**
 * From now on every flow of the stack is in `currency` only (still round-robin over the users):
 * every disbursement debits the partner's one float account in it, the hot-row case.
 */
export function oneAccountFlows(stack: FlowsBenchStack, currency: Currency): void {
  stack.flowTargets = stack.flowTargets.filter((target) => target.currency === currency);
  stack.nextTarget = 0;
}

/** One flow of each kind, checked, before any load: a broken stack fails here with its answer. */
export async function checkFlows(stack: FlowsBenchStack, { log }: { log: Log }): Promise<void> {
  for (const flowName of flowNames) {
    const result = await measureFlow(stack, flowName, { connections: 1, durationSeconds: 1 });
    if (result.flows === 0 || result.non2xx > 0 || result.errors > 0 || result.unexpected > 0) {
      throw new Error(`the ${flowName} flow does not complete: ${result.firstFailure ?? 'no flow completed in 1 s'}`);
    }
    log(`  ${flowName} flow works (${result.flows} in 1 s on one connection)`);
  }
}

export type ReferenceRun = ReferenceResult & { ourIdleCores: number };

export interface FlowsMeasurements {
  referenceRuns: (ReferenceRun | undefined)[];
  users: number;
  targets: number;
  disbursement: FlowSummary;
  collection: FlowSummary;
  rounds: Record<FlowName, FlowRound[]>;
  pgWaits: Record<FlowName, PgWaits> | undefined;
}

/**
 * Starts the stack, checks one flow of each kind, warms up, then the interleaved rounds
 * (disbursement, collection; disbursement, collection; ...), and stops everything it started.
 * `referenceRun(label)`, when given, runs the shared reference while this stack is up and idle:
 * once before the first round and once after each round, so every round has a reference run on
 * each side of it, a minute or so apart rather than minutes (the machine's speed drifts). What our
 * idle processes used meanwhile is measured and reported with each reference run.
 */
export async function runFlowsBenchmark(options: BenchOptions, { log, referenceRun }: { log: Log; referenceRun: ((label: string) => Promise<ReferenceResult | undefined>) | undefined }): Promise<FlowsMeasurements> {
  const users = options.users ?? 64;
  const stack = await startFlowsStack(options, { log, users });
  const monitor = new Pool({ connectionString: stack.databaseUrl, max: 1, application_name: 'bench-cpu-monitor' });
  try {
    await checkFlows(stack, { log });
    const meter = benchCpuMeter(stack, monitor, flowProcessNames(options.configuration));
    const waits = options.pgWaits ? { disbursement: pgWaitSampler(monitor), collection: pgWaitSampler(monitor) } : undefined;
    log(`warm-up: ${options.warmupSeconds} s per flow, ${options.connections} connections`);
    for (const flowName of flowNames) {
      await measureFlow(stack, flowName, { connections: options.connections, durationSeconds: options.warmupSeconds });
      await sleep(drainMs);
      guardAgainstDeath(stack);
    }
    const collected: Record<FlowName, FlowRound[]> = { disbursement: [], collection: [] };
    const referenceRuns: (ReferenceRun | undefined)[] = [];
    const runReferenceBeside = async (label: string): Promise<void> => {
      if (!referenceRun) return;
      await meter.start();
      const startedAt = Date.now();
      const result = await referenceRun(label);
      const idleCores = totalSeconds(await meter.stop()) / ((Date.now() - startedAt) / 1000);
      if (result) log(`    (our idle stack used ${format(idleCores)} cores meanwhile)`);
      referenceRuns.push(result && { ...result, ourIdleCores: idleCores });
      guardAgainstDeath(stack);
    };
    await runReferenceBeside('before round 1');
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const flowName of flowNames) {
        await meter.start();
        const machineBefore = machineBusySeconds();
        waits?.[flowName].start();
        const measured = await measureFlow(stack, flowName, { connections: options.connections, durationSeconds: options.durationSeconds });
        waits?.[flowName].stop();
        const machineAfter = machineBusySeconds();
        const cpuSeconds = await meter.stop();
        const ours = totalSeconds(cpuSeconds);
        // Everything else the machine ran during the round: Postgres' own background processes, and other people's work.
        const otherSeconds = machineBefore !== undefined && machineAfter !== undefined ? Math.max(0, machineAfter - machineBefore - ours) : undefined;
        const result: FlowRound = { ...measured, cpuSeconds, ourCores: ours / measured.durationSeconds, otherCores: otherSeconds === undefined ? null : otherSeconds / measured.durationSeconds };
        await sleep(drainMs);
        guardAgainstDeath(stack);
        collected[flowName].push(result);
        const steps = Object.entries(result.steps)
          .map(([name, step]) => `${name} ${format(step.p50Ms)}/${format(step.p99Ms)}`)
          .join(', ');
        log(
          `  ${flowName.padEnd(12)} round ${round}: ${result.flowsPerSecond.toFixed(0)} flows/s, per request p50 ${format(result.p50Ms)} ms, p99 ${format(result.p99Ms)} ms ` +
            `(p50/p99 ms: ${steps}), CPU ${format(cpuPerFlow([result]).total)} ms/flow` +
            `, cores busy: ours ${format(result.ourCores)}${result.otherCores === null ? '' : `, other processes ${format(result.otherCores)}`}` +
            `${result.non2xx || result.errors || result.timeouts || result.unexpected ? `, non-2xx ${result.non2xx}, errors ${result.errors + result.timeouts}, unexpected ${result.unexpected} (first: ${result.firstFailure ?? 'none'})` : ''}`,
        );
      }
      await runReferenceBeside(`after round ${round}`);
    }
    return {
      referenceRuns,
      users,
      targets: stack.flowTargets.length,
      disbursement: summariseFlow(collected.disbursement),
      collection: summariseFlow(collected.collection),
      rounds: collected,
      pgWaits: waits && { disbursement: waits.disbursement.report(), collection: waits.collection.report() },
    };
  } finally {
    await monitor.end().catch(() => undefined);
    await stopBenchStack(stack, { log });
    if (options.cpuProfile.length > 0) log(`CPU profiles (written as the processes stopped): ${stack.profileDirectory}`);
  }
}
