// The quote benchmark's summary: its JSON line and its table (quote.ts measures).
import { rounded } from './gateway';
import { describeConfiguration } from './configuration';
import { format } from './measure';
import type { BenchOptions } from './options';
import { runQuoteBenchmark, type SqlCheck } from './quote';
import { describeCpu, everyAnswered, loadRunFields, log, minus, out, over, referenceFields, referenceRun, referenceSummary, round, roundAll, row, type ReferenceSummary } from './report';


export async function quoteBenchmark(options: BenchOptions): Promise<QuoteSummary> {
  const before = await referenceRun(options, 'before');
  const users = options.users ?? Math.round(Number(process.env.BENCH_QUOTE_USERS) || 16);
  log(`starting the quote bench stack (auth, wallet, quotes, gateway; ${users} users)`);
  const run = await runQuoteBenchmark({ ...options, users }, { log });
  log('quote bench stack stopped');
  const after = await referenceRun(options, 'after');
  const summary = quoteSummary(options, run, referenceSummary([before, after]));
  printQuoteTable(summary, run.sqlCheck);
  return summary;
}

function quoteSummary(options: BenchOptions, { measured, sqlCheck, users, quotesInRotation }: Awaited<ReturnType<typeof runQuoteBenchmark>>, reference: ReferenceSummary | undefined) {
  const requestsValid = everyAnswered(measured, ['raw', 'gateway']);
  const { load, latency } = measured;
  const perReference = (value: number | null): number | null => (reference ? round(over(value, reference.flowsPerSecond)) : null);
  return {
    bench: 'quote',
    ...loadRunFields(options),
    users,
    quotes_in_rotation: quotesInRotation,
    gateway: { quotes_per_s: round(load.gateway.requestsPerSecond, 0), p50_ms: round(load.gateway.p50Ms), p99_ms: round(load.gateway.p99Ms), non2xx: load.gateway.non2xx, errors: load.gateway.errors },
    raw: { ops_per_s: round(load.raw.requestsPerSecond, 0), p50_ms: round(load.raw.p50Ms), p99_ms: round(load.raw.p99Ms), errors: load.raw.errors },
    gateway_per_raw: round(over(load.gateway.requestsPerSecond, load.raw.requestsPerSecond)),
    latency: { gateway: rounded(latency.gateway), raw: rounded(latency.raw), added_p50_ms: round(minus(latency.gateway.p50Ms, latency.raw.p50Ms)) },
    cpu_ms_per_quote: { raw: roundAll(measured.cpu.load.raw), gateway: roundAll(measured.cpu.load.gateway) },
    same_database_work: sqlCheck.same,
    database_work_per_quote: Object.fromEntries(sqlCheck.tables.map((entry) => [entry.table, entry.gateway])),
    valid: requestsValid && sqlCheck.same,
    ...referenceFields(reference),
    quotes_per_reference_flow: perReference(load.gateway.requestsPerSecond),
    raw_ops_per_reference_flow: perReference(load.raw.requestsPerSecond),
  };
}

type QuoteSummary = ReturnType<typeof quoteSummary>;

function printQuoteTable(summary: QuoteSummary, sqlCheck: SqlCheck): void {
  const line = (cells: readonly (string | number | null)[]): void => row(cells.map((cell) => cell ?? 'n/a'), 34, 12);
  const { gateway, raw, latency } = summary;
  out('');
  out(
    `Quote benchmark: POST /partner/v1/{disbursement,collection}/quote over ${summary.users} users x 2 types x 2 currencies, ` +
      `${summary.rounds} interleaved rounds of ${summary.duration_s} s per target (node ${summary.node}, ${summary.cpus} CPUs)`,
  );
  out(describeConfiguration(summary.configuration));
  line(['', 'raw SQL', 'gateway', 'gateway/raw']);
  line([`load (${summary.connections} connections) quotes/s`, raw.ops_per_s, gateway.quotes_per_s, format(summary.gateway_per_raw, 3)]);
  line(['load p50 ms', format(raw.p50_ms), format(gateway.p50_ms), format(over(gateway.p50_ms, raw.p50_ms))]);
  line(['load p99 ms', format(raw.p99_ms), format(gateway.p99_ms), format(over(gateway.p99_ms, raw.p99_ms))]);
  line([`latency (${summary.latency_connections} connection) quotes/s`, latency.raw.req_per_s, latency.gateway.req_per_s, format(over(latency.gateway.req_per_s, latency.raw.req_per_s), 3)]);
  line(['latency p50 ms', format(latency.raw.p50_ms), format(latency.gateway.p50_ms), format(over(latency.gateway.p50_ms, latency.raw.p50_ms))]);
  line(['latency p99 ms', format(latency.raw.p99_ms), format(latency.gateway.p99_ms), format(over(latency.gateway.p99_ms, latency.raw.p99_ms))]);
  out(`CPU ms per quote under load, raw:     ${describeCpu(summary.cpu_ms_per_quote.raw)}`);
  out(`CPU ms per quote under load, gateway: ${describeCpu(summary.cpu_ms_per_quote.gateway)}`);
  out('');
  out(
    `Raw SQL: the statements one quote runs (fee schedule, the wallet's read-only check transaction, the quote INSERT) on the same ` +
      `pools, without HTTP. Same tables touched the same number of times per quote: ${summary.same_database_work ? 'yes' : 'NO (the raw figure is not comparable; update scripts/bench/quote-raw.ts)'}` +
      ` (${sqlCheck.tables.map((entry) => `${entry.table} ${entry.gateway.seq_scan + entry.gateway.idx_scan} scans${entry.gateway.n_tup_ins ? `, ${entry.gateway.n_tup_ins} insert` : ''}`).join('; ')}).`,
  );
  out(`Non-2xx ${gateway.non2xx}, errors ${gateway.errors} (gateway); errors ${raw.errors} (raw).${summary.valid ? '' : ' INVALID run.'}`);
  if (summary.reference_flows_per_s !== null) {
    out(`Reference flow, same run: ${summary.reference_flows_per_s} flows/s (runs: ${summary.reference_runs.join(', ')}).`);
    out(
      `Ratios to it: ${String(summary.quotes_per_reference_flow)} quotes/s per reference flow/s through the gateway, ${String(summary.raw_ops_per_reference_flow)} raw. ` +
        'A reference flow is a quote plus a transfer (two requests, two transactions); a quote here is one request and three transactions ' +
        '(fee read, check snapshot, insert) across three processes, so compare the ratio between runs, not with 1.',
    );
  } else {
    out('Reference flow: not run (ratios omitted).');
  }
}
