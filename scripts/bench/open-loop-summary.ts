// The open-loop mode's summary: its JSON line and its table (flows-open-loop.ts measures).
import { configurationFields, describeConfiguration } from './configuration';
import { flowProcessNames } from './flows';
import { runOpenLoopFlowsBenchmark, type PooledRate } from './flows-open-loop';
import { format } from './measure';
import type { Percentiles } from './open-loop';
import type { BenchOptions } from './options';
import { describeCpu, log, machine, out, over, round, roundAll } from './report';

/** At this offered rate, our p99 per request is at most this many times the reference's in the same run. */
const targetRatePerSecond = 40;
const targetP99Ratio = 3;

function milliseconds(values: Percentiles): { p50: number | null; p90: number | null; p99: number | null; max: number | null } {
  return { p50: round(values.p50), p90: round(values.p90), p99: round(values.p99), max: round(values.max) };
}

function figures(pooled: PooledRate, stepNames: readonly string[]) {
  return {
    offered: pooled.offered,
    completed: pooled.completed,
    failed: pooled.failed,
    skipped: pooled.skipped,
    ...(pooled.firstFailure ? { first_failure: pooled.firstFailure } : {}),
    request_ms: milliseconds(pooled.requests),
    flow_ms: milliseconds(pooled.flows),
    steps_ms: Object.fromEntries(stepNames.map((name, index) => [name, milliseconds(pooled.steps[index] ?? pooled.requests)])),
    round_request_p99_ms: pooled.roundP99Ms.map((value) => round(value)),
    start_lateness_ms: { p99: round(pooled.startLateness.p99), max: round(pooled.startLateness.max) },
    load_generator_loop_delay_ms: { p99: round(pooled.loopDelayMs.p99), max: round(pooled.loopDelayMs.max) },
    cores_busy: { its_processes: round(pooled.targetCores, 2), other_processes: round(pooled.otherCores, 2) },
    cpu_ms_per_flow: roundAll(pooled.cpuMsPerFlow),
  };
}

type Figures = ReturnType<typeof figures>;

export async function openLoopFlowsBenchmark(options: BenchOptions) {
  log(
    `starting the flows bench stack (${flowProcessNames(options.configuration).join(', ')}; sandbox; ${options.users ?? 64} users) ` +
      `for the open loop at ${options.rates.join(', ')} flows/s`,
  );
  const measured = await runOpenLoopFlowsBenchmark(options, { log });
  log('flows bench stack stopped');
  const results = measured.rates.map(({ rate, ours, reference }) => ({
    rate,
    ours: figures(ours, measured.stepNames),
    reference: reference ? figures(reference, measured.stepNames) : null,
    p99_ratio: reference ? { request: round(over(ours.requests.p99, reference.requests.p99), 2), flow: round(over(ours.flows.p99, reference.flows.p99), 2) } : null,
  }));
  const complete = (result: Figures | null): boolean => result === null || (result.failed === 0 && result.skipped === 0 && result.completed === result.offered);
  const valid = results.every((result) => complete(result.ours) && complete(result.reference));
  const judgedRatio = results.find((result) => result.rate === targetRatePerSecond)?.p99_ratio?.request;
  const summary = {
    bench: 'flows-open-loop',
    ...machine(),
    ...configurationFields(options.configuration, { environment: 'sandbox' }),
    flow: 'disbursement',
    duration_s: options.durationSeconds,
    warmup_s: options.warmupSeconds,
    rounds: options.rounds,
    users: measured.users,
    rates: options.rates,
    results,
    target: { rate: targetRatePerSecond, request_p99_ratio_max: targetP99Ratio },
    meets_target: judgedRatio === undefined || judgedRatio === null ? null : valid && judgedRatio <= targetP99Ratio,
    valid,
  };
  printOpenLoopTable(summary);
  return summary;
}

type OpenLoopSummary = Awaited<ReturnType<typeof openLoopFlowsBenchmark>>;

function printOpenLoopTable(summary: OpenLoopSummary): void {
  const line = (cells: readonly string[]): void => out(cells.map((cell, index) => `${cell.padEnd(index === 0 ? 25 : 31)} `).join('').trimEnd());
  const quartet = (values: ReturnType<typeof milliseconds> | undefined): string => (values ? [values.p50, values.p90, values.p99, values.max].map((value) => format(value, 1)).join(' / ') : 'n/a');
  out('');
  out(
    `Flows benchmark, open loop: disbursement flows (quote, transfer) started at a fixed offered rate whatever the answers, latency from each ` +
      `flow's planned start (no coordinated omission); ours through our gateway (HTTPS), the reference's flow through its gateway; ` +
      `${summary.rounds} interleaved rounds (ours, reference) of ${summary.duration_s} s per rate, each after ${summary.warmup_s} s of warm-up ` +
      `(node ${summary.node}, ${summary.cpus} CPUs, ${String(summary.cpu_model)})`,
  );
  out(describeConfiguration(summary.configuration));
  for (const result of summary.results) {
    out('');
    line([`${result.rate} flows/s offered`, 'ours p50/p90/p99/max ms', 'reference p50/p90/p99/max ms', 'p99 ours/reference']);
    line(['per request', quartet(result.ours.request_ms), quartet(result.reference?.request_ms), result.p99_ratio ? `${format(result.p99_ratio.request)}x` : 'n/a']);
    line(['per flow', quartet(result.ours.flow_ms), quartet(result.reference?.flow_ms), result.p99_ratio ? `${format(result.p99_ratio.flow)}x` : 'n/a']);
    for (const step of Object.keys(result.ours.steps_ms)) line([`  ${step}`, quartet(result.ours.steps_ms[step]), quartet(result.reference?.steps_ms[step]), '']);
    for (const [name, target] of [['ours', result.ours], ['reference', result.reference]] as const) {
      if (!target) continue;
      const other = target.cores_busy.other_processes;
      out(
        `  ${name}: ${target.completed} of ${target.offered} flows completed, ${target.failed} failed, ${target.skipped} skipped; ` +
          `request p99 per round ${target.round_request_p99_ms.map((value) => format(value, 1)).join(', ')} ms; starts late by at most ${format(target.start_lateness_ms.max, 1)} ms; ` +
          `load generator's event-loop delay p99 ${format(target.load_generator_loop_delay_ms.p99, 1)} ms; ` +
          `cores busy: its processes ${format(target.cores_busy.its_processes)}, other processes ${format(other)}; ` +
          `CPU ms per flow: ${describeCpu(target.cpu_ms_per_flow)}` +
          `${other !== null && other > 0.25 ? ' (the machine was shared: the tail is longer than alone)' : ''}` +
          `${target.first_failure ? `; first failure: ${target.first_failure}` : ''}`,
      );
    }
  }
  out('');
  const judged = summary.results.find((result) => result.rate === summary.target.rate);
  const verdict =
    summary.meets_target === null
      ? `not judged (${judged ? 'no reference' : `${summary.target.rate} flows/s not among the rates`})`
      : `${summary.meets_target ? 'MET' : 'NOT MET'} (${format(judged?.p99_ratio?.request)}x)`;
  out(
    `Target: at ${summary.target.rate} flows/s, our p99 per request at most ${summary.target.request_p99_ratio_max}x the reference's in the same run: ` +
      `${verdict}${summary.valid ? '' : '; INVALID run: some flows failed or could not be started'}.`,
  );
}
