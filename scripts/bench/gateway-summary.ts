// The gateway benchmark's summary: its JSON line and its table (gateway.ts measures).
import { measureGateway, rounded, startGatewayBenchStack, type GatewayMeasurements } from './gateway';
import { stopBenchStack } from './bench-stack';
import { describeConfiguration } from './configuration';
import { format } from './measure';
import type { BenchOptions } from './options';
import { everyAnswered, loadRunFields, log, minus, out, over, referenceFields, referenceRun, referenceSummary, round, row, type ReferenceSummary } from './report';

/** The gateway adds less than this at p50, judged on the latency run. */
const targetAddedP50Ms = 2;


export async function gatewayBenchmark(options: BenchOptions): Promise<GatewaySummary> {
  const before = await referenceRun(options, 'before');
  log('starting the bench stack (upstream, auth, gateway)');
  const stack = await startGatewayBenchStack({ log, configuration: options.configuration });
  let measured: GatewayMeasurements;
  try {
    measured = await measureGateway(stack, options, { log });
  } finally {
    await stopBenchStack(stack, { log });
    log('bench stack stopped');
  }
  const after = await referenceRun(options, 'after');
  const summary = gatewaySummary(options, measured, referenceSummary([before, after]));
  printGatewayTable(summary);
  return summary;
}

function gatewaySummary(options: BenchOptions, measured: GatewayMeasurements, reference: ReferenceSummary | undefined) {
  const addedLatencyP50Ms = minus(measured.latency.gateway.p50Ms, measured.latency.direct.p50Ms);
  const valid = everyAnswered(measured, ['direct', 'gateway']);
  const perReference = (value: number | null): number | null => (reference ? round(over(value, reference.flowsPerSecond)) : null);
  return {
    bench: 'gateway',
    ...loadRunFields(options),
    load: { direct: rounded(measured.load.direct), gateway: rounded(measured.load.gateway), added_p50_ms: round(minus(measured.load.gateway.p50Ms, measured.load.direct.p50Ms)) },
    latency: { direct: rounded(measured.latency.direct), gateway: rounded(measured.latency.gateway), added_p50_ms: round(addedLatencyP50Ms) },
    target_added_p50_ms: targetAddedP50Ms,
    meets_target: valid && addedLatencyP50Ms !== null && addedLatencyP50Ms < targetAddedP50Ms,
    valid,
    ...referenceFields(reference),
    gateway_rps_per_reference_flow: perReference(measured.load.gateway.requestsPerSecond),
    direct_rps_per_reference_flow: perReference(measured.load.direct.requestsPerSecond),
  };
}

type GatewaySummary = ReturnType<typeof gatewaySummary>;

function printGatewayTable(summary: GatewaySummary): void {
  const line = (cells: readonly (string | number | null)[]): void => row(cells.map((cell) => cell ?? 'n/a'), 34, 12);
  out('');
  out(`Gateway benchmark: GET /partner/v1/balance, ${summary.rounds} interleaved rounds of ${summary.duration_s} s per target (node ${summary.node}, ${summary.cpus} CPUs)`);
  out(describeConfiguration(summary.configuration));
  line(['', 'direct', 'gateway', 'gateway adds']);
  for (const scenario of ['load', 'latency'] as const) {
    const figures = summary[scenario];
    const label = scenario === 'load' ? `load (${summary.connections} connections)` : `latency (${summary.latency_connections} connection)`;
    line([`${label} req/s`, figures.direct.req_per_s, figures.gateway.req_per_s, '']);
    line([`${scenario} p50 ms`, format(figures.direct.p50_ms), format(figures.gateway.p50_ms), format(figures.added_p50_ms)]);
    line([`${scenario} p99 ms`, format(figures.direct.p99_ms), format(figures.gateway.p99_ms), format(minus(figures.gateway.p99_ms, figures.direct.p99_ms))]);
  }
  out('');
  out(
    `Target: the gateway adds < ${summary.target_added_p50_ms} ms at p50 (judged on the latency run): ` +
      `${summary.meets_target ? 'MET' : 'NOT MET'} (+${format(summary.latency.added_p50_ms)} ms)${summary.valid ? '' : '; INVALID run: some requests failed'}`,
  );
  if (summary.reference_flows_per_s !== null) {
    out(`Reference flow, same run: ${summary.reference_flows_per_s} flows/s (runs: ${summary.reference_runs.join(', ')}).`);
    out(
      `Ratios to it: gateway ${String(summary.gateway_rps_per_reference_flow)} req/s per reference flow/s, direct ${String(summary.direct_rps_per_reference_flow)}. ` +
        'A ratio compares runs (or machines), not designs: the reference does one quote and one transfer (two HTTP calls and two Postgres ' +
        "transactions) per flow, our request one Redis check and no database, so only the ratio's change between runs means something.",
    );
  } else {
    out('Reference flow: not run (ratios omitted).');
  }
}
