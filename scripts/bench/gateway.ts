// Gateway benchmark: the same GET /partner/v1/balance sent straight to a trivial upstream and
// through the gateway (HTTPS, Bearer token verified, partner status checked, rate limited in Redis),
// measured in one run, interleaved, with the same connections and duration.
//
// Two load shapes, because they answer different questions:
//   load     many connections, as fast as the machine allows: requests per second (capacity).
//            Latency here is mostly queueing, so it is reported but not judged.
//   latency  one connection, one request at a time (default): latency is service time, with no
//            queue in front of it, and the "gateway adds < 2 ms at p50" target is judged on it.
// autocannon's own rate option is not used for the latency run: it sends each second's budget as
// a burst at the start of the second, which measures queueing again.
import path from 'node:path';
import { asRecord, request } from '../lib/http';
import { freePorts } from '../lib/ports';
import { bearerToken, failedStart, guardAgainstDeath, onboardBenchPartner, startBenchStack, type BenchStack, type Log } from './bench-stack';
import type { BenchConfiguration } from './configuration';
import { format, mean, measure, type Measured } from './measure';
import type { BenchOptions } from './options';
import { round } from './report';

const benchPath = '/partner/v1/balance';

export type GatewayTarget = 'direct' | 'gateway';

export interface GatewayBenchStack extends BenchStack {
  targets: Record<GatewayTarget, { url: string; headers: Record<string, string> }>;
}

/** Everything a measurement needs, started fresh: bench database, upstream, auth, gateway, token. */
export async function startGatewayBenchStack({ log, configuration }: { log: Log; configuration: BenchConfiguration }): Promise<GatewayBenchStack> {
  const stack = await startBenchStack({ log, databaseName: 'partner_wallet_bench', needs: ['auth', 'gateway'], configuration });
  try {
    const { local, settings } = stack;
    const [upstreamPort] = await freePorts(1);
    const upstreamUrl = `http://127.0.0.1:${String(upstreamPort)}`;
    await local.startProcess('upstream', path.join(__dirname, 'upstream.js'), { ...stack.env }, { readyUrl: `${upstreamUrl}/readyz`, args: [String(upstreamPort)] });
    await local.startServices(['auth']);
    log(`auth ready on ${settings.services[0]?.url ?? ''}`);
    const partner = await onboardBenchPartner(stack);
    // Every service but auth is the upstream.
    const upstreamUrls = Object.fromEntries(settings.services.filter((service) => service.name !== 'auth').map((service) => [service.urlVariable, upstreamUrl]));
    const gateway = await local.startGateway({ overrides: upstreamUrls });
    log(`gateway ready on ${gateway.baseUrl}`);
    const headers = { authorization: await bearerToken(stack, gateway.baseUrl, partner) };
    const targets = {
      direct: { url: `${upstreamUrl}${benchPath}`, headers },
      gateway: { url: `${gateway.baseUrl}${benchPath}`, headers },
    };
    for (const [name, target] of Object.entries(targets)) {
      const answer = await request(target.url, { headers: target.headers, ca: stack.ca, timeoutMs: 10_000 });
      if (answer.status !== 200 || asRecord(answer.json)?.success !== true) {
        throw new Error(`${name} ${target.url} answered HTTP ${answer.status} ${answer.text.slice(0, 300)} (expected 200 with success: true)`);
      }
    }
    return { ...stack, targets };
  } catch (error) {
    return failedStart(stack, error, { log });
  }
}

export interface Summary {
  requestsPerSecond: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  non2xx: number;
  errors: number;
  rounds: number;
}

/** Means over rounds (percentiles: the mean of each round's); failure counts summed. */
export function summarise(results: readonly Measured[]): Summary {
  return {
    requestsPerSecond: mean(results.map((result) => result.requestsPerSecond)),
    p50Ms: mean(results.map((result) => result.p50Ms)),
    p99Ms: mean(results.map((result) => result.p99Ms)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
    rounds: results.length,
  };
}

/** A summary as the JSON lines print it. */
export function rounded(stats: Summary): { req_per_s: number | null; p50_ms: number | null; p99_ms: number | null; non2xx: number; errors: number } {
  return { req_per_s: round(stats.requestsPerSecond, 0), p50_ms: round(stats.p50Ms), p99_ms: round(stats.p99Ms), non2xx: stats.non2xx, errors: stats.errors };
}

export type GatewayMeasurements = Record<Scenario, Record<GatewayTarget, Summary>>;

export type Scenario = 'load' | 'latency';

/** One measurement of a target: `connections` connections for `durationSeconds`. */
type MeasureTarget<Result> = (connections: number, durationSeconds: number) => Promise<Result>;

/**
 * A warm-up of each target (`connections`, `warmupSeconds`), then for each scenario (load:
 * `connections`; latency: `latencyConnections`) the interleaved rounds, the targets in turn.
 * `afterEach` hears of every measured round (and may add to it, say its CPU); the stack is checked
 * for a dead process after each measurement.
 */
export async function interleavedScenarios<Target extends string, Run, Result>(
  stack: BenchStack,
  targets: Readonly<Record<Target, MeasureTarget<Run>>>,
  options: BenchOptions,
  { log, afterEach }: { log: Log; afterEach: (run: Run, scenario: Scenario, target: Target, round: number) => Result | Promise<Result> },
): Promise<Record<Scenario, Record<Target, Result[]>>> {
  const names = Object.keys(targets) as Target[];
  log(`warm-up: ${options.warmupSeconds} s each, ${options.connections} connections`);
  for (const name of names) {
    await targets[name](options.connections, options.warmupSeconds);
    guardAgainstDeath(stack);
  }
  const scenarios = [
    { name: 'load', connections: options.connections },
    { name: 'latency', connections: options.latencyConnections },
  ] as const;
  const empty = (): Record<Target, Result[]> => Object.fromEntries(names.map((name) => [name, []])) as unknown as Record<Target, Result[]>;
  const collected: Record<Scenario, Record<Target, Result[]>> = { load: empty(), latency: empty() };
  for (const scenario of scenarios) {
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const name of names) {
        const measured = await targets[name](scenario.connections, options.durationSeconds);
        const result = await afterEach(measured, scenario.name, name, round);
        guardAgainstDeath(stack);
        collected[scenario.name][name].push(result);
      }
    }
  }
  return collected;
}

/** The failures of a round, for its progress line. */
export function failuresOf(result: Measured): string {
  return result.non2xx || result.errors ? `, non-2xx ${result.non2xx}, errors ${result.errors} (first: ${result.firstFailure ?? 'none'})` : '';
}

/** Runs warm-up and the interleaved rounds against a started stack. */
export async function measureGateway(stack: GatewayBenchStack, options: BenchOptions, { log }: { log: Log }): Promise<GatewayMeasurements> {
  const { targets } = stack;
  const measureTarget =
    (name: GatewayTarget): MeasureTarget<Measured> =>
    (connections, durationSeconds) =>
      measure({ ...targets[name], connections, durationSeconds });
  const collected = await interleavedScenarios(stack, { direct: measureTarget('direct'), gateway: measureTarget('gateway') }, options, {
    log,
    afterEach: (result, scenario, name, round) => {
      log(`  ${scenario.padEnd(7)} ${name.padEnd(7)} round ${round}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${format(result.p50Ms)} ms, p99 ${format(result.p99Ms)} ms${failuresOf(result)}`);
      return result;
    },
  });
  return {
    load: { direct: summarise(collected.load.direct), gateway: summarise(collected.load.gateway) },
    latency: { direct: summarise(collected.latency.direct), gateway: summarise(collected.latency.gateway) },
  };
}
