// Open-loop load: flows started at a fixed offered rate whatever the answers. Flow i is planned at
// start + i / rate; a flow whose planned time has passed is started at once, even while earlier
// flows are still waiting for their answers, so a slow answer never delays the next flow (no
// coordinated omission). Latency is measured from the planned time, not from when the request
// left: a flow that starts late because this process was busy counts its wait too.
//
// A flow is a sequence of steps (requests). The first step's latency is from the flow's planned
// start; each later step's from the answer of the step before it (the moment it was due, since it
// depends on that answer). The flow's latency is from its planned start to its last answer.
//
// Bounded: at most flowCountMax flows per measurement and inFlightMax at a time (a flow due while
// inFlightMax are in flight is not started and counts as skipped, which makes the run invalid:
// the target cannot keep up with the offered rate), a deadline on every request, and a drain of
// at most drainMs after the last planned start. Targets are 127.0.0.1 only.
import http from 'node:http';
import https from 'node:https';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { request, type Answer } from '../lib/http';
import { LatencySamples } from './measure';

const flowCountMax = 100_000;
const inFlightMax = 1_000;
const rateMax = 1_000;
const durationMaxSeconds = 600;
/** The transfer's own budget is 25 s (docs/partner-guide.md); a request gets a little more. */
const requestTimeoutMs = 30_000;
const drainMs = requestTimeoutMs + 5_000;
const loopDelayResolutionMs = 10;
/** Reported percentiles; 100 is the maximum. */
const percentilePoints = [50, 90, 99, 100] as const;

/** One request of a flow: false from take means the answer is not what the flow needs next. */
export interface OpenLoopStep<Context> {
  name: string;
  status: number;
  path(ctx: Context): string;
  body?(ctx: Context): string;
  take(json: unknown, ctx: Context): boolean;
}

/** Where requests go and how one flow's steps look; `headers` go with every request, `ca` trusts an HTTPS certificate. */
export interface OpenLoopTarget<Context> {
  name: string;
  baseUrl: string;
  steps: OpenLoopStep<Context>[];
  headers: Record<string, string>;
  ca?: Buffer;
  /** A new flow's context. */
  nextContext(): Context;
}

/** Refuses any target that is not this machine's loopback address. */
export function assertLoopback(baseUrl: string): void {
  const { hostname } = new URL(baseUrl);
  if (hostname !== '127.0.0.1') throw new Error(`the open-loop load goes to 127.0.0.1 only (got ${baseUrl})`);
}

/** A target, checked to be on loopback. */
export function openLoopTarget<Context>(target: OpenLoopTarget<Context>): OpenLoopTarget<Context> {
  assertLoopback(target.baseUrl);
  return target;
}

/** What one measurement collects: latency per request, per step and per flow, and what failed. */
interface Recorder {
  requests: LatencySamples;
  steps: LatencySamples[];
  flows: LatencySamples;
  startLateness: LatencySamples;
  completed: number;
  failed: number;
  skipped: number;
  firstFailure: string | undefined;
}

function newRecorder(stepCount: number): Recorder {
  return {
    requests: new LatencySamples(),
    steps: Array.from({ length: stepCount }, () => new LatencySamples()),
    flows: new LatencySamples(),
    startLateness: new LatencySamples(),
    completed: 0,
    failed: 0,
    skipped: 0,
    firstFailure: undefined,
  };
}

function recordFailure(recorder: Recorder, message: string): void {
  recorder.failed += 1;
  recorder.firstFailure ??= message;
}

/** Runs one flow planned at plannedAt (performance.now() time); never rejects. */
async function runFlow<Context>(target: OpenLoopTarget<Context>, agent: http.Agent, plannedAt: number, recorder: Recorder): Promise<void> {
  const ctx = target.nextContext();
  let dueAt = plannedAt;
  for (const [index, step] of target.steps.entries()) {
    const body = step.body ? step.body(ctx) : undefined;
    let answer: Answer;
    try {
      answer = await request(`${target.baseUrl}${step.path(ctx)}`, {
        method: 'POST',
        headers: body === undefined ? target.headers : { ...target.headers, 'content-type': 'application/json' },
        body,
        ...(target.ca ? { ca: target.ca } : {}),
        agent,
        timeoutMs: requestTimeoutMs,
      });
    } catch (error) {
      recordFailure(recorder, `${target.name} ${step.name}: ${(error as Error).message}`);
      return;
    }
    const answeredAt = performance.now();
    if (answer.status !== step.status || answer.json === undefined || !step.take(answer.json, ctx)) {
      recordFailure(recorder, `${target.name} ${step.name}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
      return;
    }
    recorder.requests.add(answeredAt - dueAt);
    recorder.steps[index]?.add(answeredAt - dueAt);
    dueAt = answeredAt;
  }
  recorder.flows.add(dueAt - plannedAt);
  recorder.completed += 1;
}

export function checkBounds(ratePerSecond: number, durationSeconds: number): number {
  if (!(ratePerSecond > 0 && ratePerSecond <= rateMax)) throw new Error(`the open-loop rate must be above 0 and at most ${rateMax} flows/s (got ${ratePerSecond})`);
  if (!(durationSeconds > 0 && durationSeconds <= durationMaxSeconds)) throw new Error(`the open-loop duration must be above 0 and at most ${durationMaxSeconds} s (got ${durationSeconds})`);
  const count = Math.round(ratePerSecond * durationSeconds);
  if (count > flowCountMax) throw new Error(`${count} flows in one measurement is more than ${flowCountMax}`);
  return count;
}

export interface LoadMeasurement extends Recorder {
  offered: number;
  elapsedSeconds: number;
  /** The load generator's own stalls, beyond its timer's interval. */
  loopDelayMs: { p99: number; max: number };
}

/**
 * Offers `ratePerSecond` flows per second to the target for `durationSeconds`, then waits (at most
 * drainMs) for the flows still in flight. Resolves the samples and counts, with `offered`, the
 * event-loop delay of this process meanwhile (it generates the load, so a stall of its own shows
 * up in every latency) and the elapsed seconds.
 */
export async function offerLoad<Context>(target: OpenLoopTarget<Context>, { ratePerSecond, durationSeconds }: { ratePerSecond: number; durationSeconds: number }): Promise<LoadMeasurement> {
  const count = checkBounds(ratePerSecond, durationSeconds);
  const agent = target.baseUrl.startsWith('https:') ? new https.Agent({ keepAlive: true, maxSockets: inFlightMax, ...(target.ca ? { ca: target.ca } : {}) }) : new http.Agent({ keepAlive: true, maxSockets: inFlightMax });
  const recorder = newRecorder(target.steps.length);
  const loopDelay = monitorEventLoopDelay({ resolution: loopDelayResolutionMs });
  const intervalMs = 1000 / ratePerSecond;
  const inFlight = new Set<Promise<void>>();
  const startAt = performance.now() + 5;
  let next = 0;
  loopDelay.enable();
  try {
    await new Promise<void>((resolve) => {
      const startDueFlows = (): void => {
        const now = performance.now();
        for (; next < count && startAt + next * intervalMs <= now; next += 1) {
          const plannedAt = startAt + next * intervalMs;
          recorder.startLateness.add(now - plannedAt);
          if (inFlight.size >= inFlightMax) {
            recorder.skipped += 1;
            continue;
          }
          const flow: Promise<void> = runFlow(target, agent, plannedAt, recorder).finally(() => inFlight.delete(flow));
          inFlight.add(flow);
        }
        if (next >= count) resolve();
        else setTimeout(startDueFlows, Math.max(0, startAt + next * intervalMs - performance.now()));
      };
      setTimeout(startDueFlows, Math.max(0, startAt - performance.now()));
    });
    let drainTimer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...inFlight]), new Promise<void>((resolve) => (drainTimer = setTimeout(resolve, drainMs)))]);
    clearTimeout(drainTimer);
    if (inFlight.size > 0) recordFailure(recorder, `${inFlight.size} flows still unanswered ${drainMs / 1000} s after the last planned start`);
  } finally {
    loopDelay.disable();
    agent.destroy();
  }
  return {
    ...recorder,
    offered: count,
    elapsedSeconds: (performance.now() - startAt) / 1000,
    // The histogram's samples include the timer's own interval: what is above it is the stall.
    loopDelayMs: { p99: Math.max(0, loopDelay.percentile(99) / 1e6 - loopDelayResolutionMs), max: Math.max(0, loopDelay.max / 1e6 - loopDelayResolutionMs) },
  };
}

export interface Percentiles {
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
  count: number;
}

/** p50, p90, p99 and max of some samples (null when empty). */
export function percentilesOf(samples: LatencySamples): Percentiles {
  const values = samples.percentiles(percentilePoints);
  return { p50: values[50], p90: values[90], p99: values[99], max: values[100], count: samples.count };
}

export interface PooledMeasurements {
  requests: Percentiles;
  flows: Percentiles;
  steps: Percentiles[];
  startLateness: Percentiles;
  offered: number;
  completed: number;
  failed: number;
  skipped: number;
  firstFailure: string | undefined;
  loopDelayMs: { p99: number; max: number };
  roundP99Ms: (number | null)[];
}

/** Pools the samples of several measurements (rounds) of one target at one rate. */
export function poolMeasurements(measurements: readonly LoadMeasurement[]): PooledMeasurements {
  const pooled = (pick: (measurement: LoadMeasurement) => LatencySamples | undefined): LatencySamples => {
    const samples = new LatencySamples();
    for (const measurement of measurements) {
      const source = pick(measurement);
      if (source) for (const value of source.values.subarray(0, source.count)) samples.add(value);
    }
    return samples;
  };
  const sum = (pick: (measurement: LoadMeasurement) => number): number => measurements.reduce((total, measurement) => total + pick(measurement), 0);
  const stepCount = measurements[0]?.steps.length ?? 0;
  return {
    requests: percentilesOf(pooled((measurement) => measurement.requests)),
    flows: percentilesOf(pooled((measurement) => measurement.flows)),
    steps: Array.from({ length: stepCount }, (_, index) => percentilesOf(pooled((measurement) => measurement.steps[index]))),
    startLateness: percentilesOf(pooled((measurement) => measurement.startLateness)),
    offered: sum((measurement) => measurement.offered),
    completed: sum((measurement) => measurement.completed),
    failed: sum((measurement) => measurement.failed),
    skipped: sum((measurement) => measurement.skipped),
    firstFailure: measurements.map((measurement) => measurement.firstFailure).find((failure) => failure !== undefined),
    loopDelayMs: { p99: Math.max(...measurements.map((measurement) => measurement.loopDelayMs.p99)), max: Math.max(...measurements.map((measurement) => measurement.loopDelayMs.max)) },
    roundP99Ms: measurements.map((measurement) => percentilesOf(measurement.requests).p99),
  };
}
