// The flows benchmark's open-loop mode (npm run bench -- flows --open-loop --rates 40,80): the
// disbursement flow (quote, transfer) through our gateway, and the shared reference's flow (quote,
// transfer) through its gateway, each offered the same fixed rates of flows per second whatever
// the answers (open-loop.ts: no coordinated omission, latency from each flow's planned start).
//
// Both run at once on this machine but take turns: for each rate, rounds of ours then the
// reference (ours, reference, ours, reference, ...), the one not measured idle meanwhile. Each
// measurement is preceded by a warm-up at the same rate (fresh keep-alive connections, and the JIT
// of a process that idled through the other's turn). Per rate it reports p50/p90/p99/max per
// request and per flow of both, pooled over the rounds, and our p99 over the reference's.
import crypto from 'node:crypto';
import { Pool } from 'pg';
import { asRecord, sleep } from '../lib/http';
import { benchCpuMeter, guardAgainstDeath, stopBenchStack, type Log } from './bench-stack';
import { cpuMsPer, machineBusySeconds, totalSeconds, type CpuMeter, type CpuSeconds } from './cpu';
import { checkFlows, flowDefinitions, flowProcessNames, nextFlowTarget, startFlowsStack, type FlowContext, type FlowsBenchStack } from './flows';
import { format, mean } from './measure';
import { offerLoad, openLoopTarget, poolMeasurements, type LoadMeasurement, type OpenLoopTarget, type PooledMeasurements } from './open-loop';
import type { BenchOptions } from './options';
import { referenceAvailable, referenceScript, startReferenceServers, type ReferenceServers } from './reference';

/** Flows in flight when a measurement ends finish before the next one starts. */
const pauseMs = 2_000;
/** A short check of each target before the rates: every flow must complete. */
const checkRatePerSecond = 5;
const checkSeconds = 1;

/** Our disbursement flow (flows.ts) over every user x currency, as an open-loop target. */
function ourTarget(stack: FlowsBenchStack): OpenLoopTarget<FlowContext> {
  const runId = crypto.randomBytes(4).toString('hex');
  let externalSeq = 0;
  const steps = flowDefinitions(() => `open-${runId}-${(externalSeq += 1)}`).disbursement.map((step) => ({
    ...step,
    // Our answers are enveloped: { success, data }.
    take: (json: unknown, ctx: FlowContext): boolean => {
      const data = asRecord(asRecord(json)?.data);
      return data !== undefined && step.take(data, ctx);
    },
  }));
  return openLoopTarget({
    name: 'ours',
    baseUrl: stack.gatewayBaseUrl,
    steps,
    headers: { authorization: stack.headers.authorization ?? '' },
    ca: stack.ca,
    nextContext: () => ({ target: nextFlowTarget(stack) }),
  });
}

interface ReferenceContext {
  quoteId?: unknown;
}

/** The reference's flow as its load.js drives it: partner 3's source accounts, random destinations and amounts. */
function referenceTarget(reference: ReferenceServers): OpenLoopTarget<ReferenceContext> {
  const runId = crypto.randomBytes(4).toString('hex');
  let externalSeq = 0;
  const pick = (count: number): number => Math.floor(Math.random() * count);
  // As its load.js: REF_SOURCE_ACCOUNTS=1 debits one account (the hot row every disbursement of one of our partners debits).
  const sources = Math.min(1000, Math.max(1, Number(process.env.REF_SOURCE_ACCOUNTS || 1000)));
  return openLoopTarget<ReferenceContext>({
    name: 'reference',
    baseUrl: reference.baseUrl,
    steps: [
      {
        name: 'quote',
        status: 201,
        path: () => '/quotes',
        body: () => JSON.stringify({ accountId: 2 + 10 * pick(sources), amount: 100 + pick(900) }),
        take: (json, ctx) => Boolean((ctx.quoteId = asRecord(json)?.quoteId)),
      },
      {
        name: 'transfer',
        status: 201,
        path: () => '/transfers',
        body: (ctx) => JSON.stringify({ quoteId: ctx.quoteId, externalId: `${runId}-${(externalSeq += 1)}`, destinationAccountId: 10001 + pick(10000) }),
        take: (json) => asRecord(json)?.status === 'COMPLETED',
      },
    ],
    headers: reference.headers,
    nextContext: () => ({}),
  });
}

/** A target with the CPU meter over its processes. */
interface MeteredTarget {
  target: OpenLoopTarget<unknown>;
  meter: CpuMeter;
}

/** Every flow of a short, slow run completes, or the target is broken and the run stops here. */
async function checkTarget(target: OpenLoopTarget<unknown>, { log }: { log: Log }): Promise<void> {
  const result = await offerLoad(target, { ratePerSecond: checkRatePerSecond, durationSeconds: checkSeconds });
  if (result.completed !== result.offered) throw new Error(`the ${target.name} flow does not complete at ${checkRatePerSecond}/s: ${result.firstFailure ?? 'flows missing'}`);
  log(`  ${target.name} flow works (${result.completed} flows at ${checkRatePerSecond}/s)`);
}

type RateMeasurement = LoadMeasurement & { cpuSeconds: CpuSeconds; targetCores: number; otherCores: number | null };

/**
 * One warmed-up measurement of a target at a rate, with the CPU seconds of each of its processes,
 * the cores they kept busy and the cores everything else on the machine did (another job on a
 * shared machine moves the tail).
 */
async function measureAtRate({ target, meter }: MeteredTarget, ratePerSecond: number, options: BenchOptions): Promise<RateMeasurement> {
  await offerLoad(target, { ratePerSecond, durationSeconds: options.warmupSeconds });
  await meter.start();
  const machineBefore = machineBusySeconds();
  const measured = await offerLoad(target, { ratePerSecond, durationSeconds: options.durationSeconds });
  const machineAfter = machineBusySeconds();
  const cpuSeconds = await meter.stop();
  const targetSeconds = totalSeconds(cpuSeconds);
  const otherSeconds = machineBefore !== undefined && machineAfter !== undefined ? Math.max(0, machineAfter - machineBefore - targetSeconds) : undefined;
  await sleep(pauseMs);
  return {
    ...measured,
    cpuSeconds,
    targetCores: targetSeconds / measured.elapsedSeconds,
    otherCores: otherSeconds === undefined ? null : otherSeconds / measured.elapsedSeconds,
  };
}

function describeMeasurement(measured: RateMeasurement): string {
  const requests = poolMeasurements([measured]).requests;
  return (
    `per request p50 ${format(requests.p50)}, p90 ${format(requests.p90)}, p99 ${format(requests.p99)}, max ${format(requests.max)} ms; ` +
    `${measured.completed}/${measured.offered} flows completed${measured.skipped ? `, ${measured.skipped} skipped (too many in flight)` : ''}` +
    `${measured.failed ? `, ${measured.failed} failed (first: ${measured.firstFailure ?? 'none'})` : ''}; cores busy: its processes ${format(measured.targetCores)}, ` +
    `other processes ${format(measured.otherCores)}; CPU ${format(cpuMsPer([measured], measured.completed).total)} ms/flow; ` +
    `load generator's event-loop delay p99 ${format(measured.loopDelayMs.p99)} ms, max ${format(measured.loopDelayMs.max)} ms`
  );
}

/** cpuMsPerFlow: CPU milliseconds per completed flow, per process and in total, over the rounds. */
export type PooledRate = PooledMeasurements & { targetCores: number | null; otherCores: number | null; cpuMsPerFlow: Record<string, number> };

export interface OpenLoopMeasurements {
  users: number;
  referenceRan: boolean;
  rates: { rate: number; ours: PooledRate; reference: PooledRate | undefined }[];
  stepNames: string[];
}

function pooledRate(measurements: readonly RateMeasurement[]): PooledRate {
  return {
    ...poolMeasurements(measurements),
    targetCores: mean(measurements.map((measured) => measured.targetCores)),
    cpuMsPerFlow: cpuMsPer(
      measurements,
      measurements.reduce((sum, measured) => sum + measured.completed, 0),
    ),
    otherCores: mean(measurements.map((measured) => measured.otherCores)),
  };
}

/**
 * Starts our flows stack and (unless --no-reference, or it is missing) the reference's gateway and
 * service, checks both, then for each rate the interleaved rounds. Stops everything it started.
 */
export async function runOpenLoopFlowsBenchmark(options: BenchOptions, { log }: { log: Log }): Promise<OpenLoopMeasurements> {
  const users = options.users ?? 64;
  const stack = await startFlowsStack(options, { log, users });
  let reference: ReferenceServers | undefined;
  const monitor = new Pool({ connectionString: stack.databaseUrl, max: 1, application_name: 'bench-cpu-monitor' });
  try {
    await checkFlows(stack, { log });
    if (options.reference && referenceAvailable()) {
      reference = await startReferenceServers({ stack: stack.local, databaseName: 'ref_flow_bench_open_loop', log });
    } else if (options.reference) {
      log(`reference flow not found at ${referenceScript()}; continuing without it (ratios omitted)`);
    }
    const ours: MeteredTarget = { target: ourTarget(stack), meter: benchCpuMeter(stack, monitor, flowProcessNames(options.configuration)) };
    const theirs: MeteredTarget | undefined = reference && {
      target: referenceTarget(reference),
      meter: benchCpuMeter(stack, monitor, reference.processNames, { databaseName: reference.databaseName }),
    };
    const turns = theirs ? [ours, theirs] : [ours];
    for (const { target } of turns) await checkTarget(target, { log });
    guardAgainstDeath(stack);
    const rates: OpenLoopMeasurements['rates'] = [];
    for (const rate of options.rates) {
      const collected = new Map<MeteredTarget, RateMeasurement[]>(turns.map((turn) => [turn, []]));
      for (let round = 1; round <= options.rounds; round += 1) {
        for (const turn of turns) {
          const measured = await measureAtRate(turn, rate, options);
          guardAgainstDeath(stack);
          collected.get(turn)?.push(measured);
          log(`  ${String(rate).padStart(4)} flows/s ${turn.target.name.padEnd(9)} round ${round}: ${describeMeasurement(measured)}`);
        }
      }
      rates.push({ rate, ours: pooledRate(collected.get(ours) ?? []), reference: theirs && pooledRate(collected.get(theirs) ?? []) });
    }
    return { users, referenceRan: theirs !== undefined, rates, stepNames: ours.target.steps.map((step) => step.name) };
  } finally {
    await monitor.end().catch(() => undefined);
    await stopBenchStack(stack, { log });
    if (reference) await reference.dropDatabase().catch((error: unknown) => log(`could not drop the reference's database: ${(error as Error).message}`));
    if (options.cpuProfile.length > 0) log(`CPU profiles (written as the processes stopped): ${stack.profileDirectory}`);
  }
}
