// The flows benchmark's summary (closed loop: connections each looping one flow): its JSON line and
// its table (flows.ts measures). The open-loop mode reports in open-loop-summary.ts.
import { configurationFields, describeConfiguration } from './configuration';
import { flowProcessNames, runFlowsBenchmark, type FlowRound, type FlowSummary, type FlowsMeasurements, type ReferenceRun } from './flows';
import { format } from './measure';
import type { BenchOptions } from './options';
import { describeCpu, log, machine, out, referenceFields, referenceRun, referenceSummary, round, roundAll, row, type ReferenceSummary } from './report';

/**
 * Issue 4: the disbursement flow keeps at least this share of the reference's flows/s. (Its
 * other half, p99 per request under 50 ms at 32 connections, is gone: by Little's law no
 * implementation reaches it on this machine; latency is judged in the open-loop mode.)
 */
const targetDisbursementRatio = 0.35;

/**
 * A round's ratio is its flows/s over the mean of the reference runs on either side of it (runs
 * [round - 1] and [round]); the flow's ratio is the mean of its rounds' ratios. Undefined when a
 * round has no valid reference run beside it.
 */
function perRoundRatio(rounds: readonly FlowRound[], referenceRuns: readonly (ReferenceRun | undefined)[]): { mean: number; rounds: number[] } | undefined {
  const ratios = rounds.map((flowRound, index) => {
    const beside = referenceSummary([referenceRuns[index], referenceRuns[index + 1]]);
    return beside ? flowRound.flowsPerSecond / beside.flowsPerSecond : undefined;
  });
  if (ratios.length === 0 || ratios.some((ratio) => ratio === undefined)) return undefined;
  const defined = ratios.filter((ratio): ratio is number => ratio !== undefined);
  return { mean: defined.reduce((sum, ratio) => sum + ratio, 0) / defined.length, rounds: defined };
}

function flowFigures(flow: FlowSummary, ratio: { mean: number; rounds: number[] } | undefined) {
  return {
    flows_per_s: round(flow.flowsPerSecond, 0),
    runs: flow.runs.map((value) => round(value, 0)),
    flows: flow.flows,
    req_p50_ms: round(flow.p50Ms),
    req_p99_ms: round(flow.p99Ms),
    steps: Object.fromEntries(Object.entries(flow.steps).map(([name, step]) => [name, { p50_ms: round(step.p50Ms), p99_ms: round(step.p99Ms) }])),
    non2xx: flow.non2xx,
    errors: flow.errors,
    unexpected: flow.unexpected,
    ...(flow.firstFailure ? { first_failure: flow.firstFailure } : {}),
    cpu_ms_per_flow: roundAll(flow.cpu),
    cores_busy: { ours: round(flow.ourCores, 2), other_processes: round(flow.otherCores, 2) },
    per_reference_flow: ratio ? round(ratio.mean) : null,
    per_reference_flow_rounds: ratio ? ratio.rounds.map((value) => round(value)) : [],
  };
}

function flowsSummary(options: BenchOptions, measured: FlowsMeasurements, reference: ReferenceSummary | undefined) {
  const ratioOf = (rounds: readonly FlowRound[]): { mean: number; rounds: number[] } | undefined => (reference ? perRoundRatio(rounds, measured.referenceRuns) : undefined);
  const idleCores = measured.referenceRuns.flatMap((run) => (run ? [run.ourIdleCores] : []));
  const disbursement = flowFigures(measured.disbursement, ratioOf(measured.rounds.disbursement));
  const collection = flowFigures(measured.collection, ratioOf(measured.rounds.collection));
  const valid = [disbursement, collection].every((flow) => flow.non2xx === 0 && flow.errors === 0 && flow.unexpected === 0 && flow.flows > 0);
  const meetsRatio = disbursement.per_reference_flow !== null && disbursement.per_reference_flow >= targetDisbursementRatio;
  return {
    bench: 'flows',
    ...machine(),
    ...configurationFields(options.configuration, { environment: 'sandbox' }),
    connections: options.connections,
    duration_s: options.durationSeconds,
    rounds: options.rounds,
    users: measured.users,
    disbursement,
    collection,
    ...referenceFields(reference),
    reference_p99_ms: reference ? round(reference.p99Ms) : null,
    reference_beside_rounds: true,
    our_idle_cores_during_reference: idleCores.length > 0 ? round(Math.max(...idleCores), 2) : null,
    target: { disbursement_per_reference_flow: targetDisbursementRatio },
    meets_target: valid && meetsRatio,
    valid,
    ...(measured.pgWaits ? { pg_waits: measured.pgWaits } : {}),
  };
}

type FlowsSummary = ReturnType<typeof flowsSummary>;

export async function flowsBenchmark(options: BenchOptions): Promise<FlowsSummary> {
  log(`starting the flows bench stack (${flowProcessNames(options.configuration).join(', ')}; sandbox; ${options.users ?? 64} users)`);
  // The reference runs beside the rounds, while the stack is up and idle (see runFlowsBenchmark).
  const measured = await runFlowsBenchmark(options, { log, referenceRun: options.reference ? (label) => referenceRun(options, label) : undefined });
  log('flows bench stack stopped');
  const summary = flowsSummary(options, measured, referenceSummary(measured.referenceRuns));
  printFlowsTable(summary);
  return summary;
}

function printFlowsTable(summary: FlowsSummary): void {
  const ratio = summary.disbursement.per_reference_flow;
  const meetsRatio = ratio !== null && ratio >= summary.target.disbursement_per_reference_flow;
  const line = (cells: readonly (string | number | null)[]): void => row(cells.map((cell) => cell ?? 'n/a'), 30, 16);
  const flows = { disbursement: summary.disbursement, collection: summary.collection };
  out('');
  out(
    `Flows benchmark: complete flows through the gateway (sandbox), ${summary.connections} connections each looping one flow, ` +
      `${summary.users} users x 2 currencies, ${summary.rounds} interleaved rounds of ${summary.duration_s} s per flow ` +
      `(node ${summary.node}, ${summary.cpus} CPUs, ${String(summary.cpu_model)})`,
  );
  out(describeConfiguration(summary.configuration));
  line(['', 'disbursement', 'collection', 'reference']);
  line(['flows/s', flows.disbursement.flows_per_s, flows.collection.flows_per_s, summary.reference_flows_per_s]);
  line(['flows/s per reference flow/s', flows.disbursement.per_reference_flow, flows.collection.per_reference_flow, summary.reference_flows_per_s === null ? 'n/a' : '1']);
  line(['requests per flow', Object.keys(flows.disbursement.steps).length, Object.keys(flows.collection.steps).length, 2]);
  line(['per request p50 ms', format(flows.disbursement.req_p50_ms), format(flows.collection.req_p50_ms), 'n/a']);
  line(['per request p99 ms', format(flows.disbursement.req_p99_ms), format(flows.collection.req_p99_ms), format(summary.reference_p99_ms)]);
  for (const [name, flow] of Object.entries(flows)) {
    out(`  ${name} per step p50/p99 ms: ${Object.entries(flow.steps).map(([step, values]) => `${step} ${format(values.p50_ms)}/${format(values.p99_ms)}`).join(', ')}`);
  }
  for (const [name, flow] of Object.entries(flows)) out(`CPU ms per ${name} flow: ${describeCpu(flow.cpu_ms_per_flow)}`);
  for (const [name, flow] of Object.entries(flows)) {
    const other = flow.cores_busy.other_processes;
    if (other === null) continue;
    out(
      `Cores busy during the ${name} rounds: ours ${format(flow.cores_busy.ours)}, other processes ${format(other)} of ${summary.cpus}` +
        `${other > 0.25 ? " (the machine was shared: the figures, and the reference's, are depressed)" : ''}.`,
    );
  }
  if (summary.pg_waits) {
    for (const [name, waits] of Object.entries(summary.pg_waits)) {
      out(`Postgres sessions during the ${name} rounds (average busy sessions, ${waits.samples} samples; service | state):`);
      for (const entry of waits.states) out(`  ${format(entry.sessions)}  ${entry.what}`);
      for (const entry of waits.lock_waits) out(`  lock wait ${format(entry.sessions)}  ${entry.what}`);
    }
  }
  out(
    `Non-2xx ${flows.disbursement.non2xx + flows.collection.non2xx}, errors ${flows.disbursement.errors + flows.collection.errors}, ` +
      `unexpected answers ${flows.disbursement.unexpected + flows.collection.unexpected}.${summary.valid ? '' : ` INVALID run (first failure: ${flows.disbursement.first_failure ?? flows.collection.first_failure ?? 'none'}).`}`,
  );
  out('');
  if (summary.reference_flows_per_s !== null) {
    out(
      `Reference flow, same run, beside the rounds (before round 1 and after each round, our stack idle, using at most ` +
        `${format(summary.our_idle_cores_during_reference)} cores): ${summary.reference_flows_per_s} flows/s (runs: ${summary.reference_runs.join(', ')}); its p99 is over its two requests.`,
    );
    out(
      `Ratios per round (each round over the mean of the reference runs on either side of it): disbursement ${flows.disbursement.per_reference_flow_rounds.join(', ')}, ` +
        `collection ${flows.collection.per_reference_flow_rounds.join(', ')}; the table shows their mean.`,
    );
  } else {
    out('Reference flow: not run (no ratio, so the target cannot be judged).');
  }
  out(
    `Target (issue 4): disbursement flows/s >= ${summary.target.disbursement_per_reference_flow} x the reference's (${flows.disbursement.per_reference_flow ?? 'n/a'}: ${meetsRatio ? 'yes' : 'no'}): ` +
      `${summary.meets_target ? 'MET' : 'NOT MET'}${summary.valid ? '' : ' (INVALID run)'}. Latency is judged in the open-loop mode (--open-loop).`,
  );
}
