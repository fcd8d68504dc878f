// npm run bench -- lists [--disbursements N] [--ledger-entries N] [--duration S] [--rounds N] [--warmup S] [--connections N]
//                  (issue 18: seeds a million rows and measures list latency; lists-options.ts; not part of "every benchmark")
// npm run bench -- bulk [--bulks N] [--items M] [--duration S] [--connections N] [--warmup S] [--users N] [--no-reference] [--no-hot-row] [--pg-waits]
//                  (issue 20; bulk-options.ts, also BENCH_BULK_BULKS, BENCH_BULK_ITEMS, BENCH_BULK_HOT_ROW=off;
//                  not part of "every benchmark"). On the flows benchmark's stack, in one run: N bulks (10) of
//                  M items (1,000) of one partner in USD, items round-robin over the users (64), quoted first
//                  (quote time reported apart), then the N transfers sent back to back and the bulks polled
//                  until final: completed items/s from the first transfer call to the last bulk's completedAt,
//                  invalid unless every item completed; the single-transfer disbursement flow (measureFlow,
//                  --connections x --duration) and the reference before and after: items/s / flows/s is the
//                  headline (target >= 5), items/s / reference flows/s beside it; then the hot row: the
//                  flow with every call debiting the partner's one USD account, with the wallet's group
//                  commit at its default and then with the wallet restarted with WALLET_GROUP_COMMIT_MAX_ITEMS=0,
//                  each over the reference run with REF_SOURCE_ACCOUNTS=1. Before measuring: 2 warm-up bulks
//                  of M items and an ANALYZE of the fresh database (without it, plans made for near-empty
//                  tables made each bulk slower than the one before). --pg-waits samples pg_stat_activity
//                  while the bulks are processed. bulk.ts, bulk-summary.ts.
// npm run bench -- [gateway|quote|flows|webhooks|reference] [--duration S] [--connections N] [--rounds N]
//                  [--latency-connections N] [--warmup S] [--no-reference] [--pg-waits] (flows)
//                  [--open-loop] [--rates 40,80]   (flows: fixed offered rates instead of connections)
//                  [--users N]   (quote: 16, flows and webhooks: 64)
//                  [--cpu-prof quotes,wallet,gateway,auth,collections,disbursements,webhooks,raw]   (quote, flows, webhooks)
// Every benchmark also takes [--config npm-start|bench-legacy] (BENCH_CONFIG; default npm-start: the
//                  stack as npm start runs it, each service its own database role, the webhooks
//                  service and npm start's webhook receiver) and, to change one setting of it,
//                  [--database-roles on|off] [--webhooks-service on|off] [--webhook-receiver on|off]
//                  [--log-level L] (configuration.ts); its table and JSON line say which ran.
// No name runs every benchmark. Each benchmark of ours also runs the shared reference flow in the
// same run (before and after; the flows benchmark beside each round, its stack idle meanwhile, or
// interleaved with ours in the open-loop mode), and reports its figures next to the reference (and
// as ratios), since absolute numbers on a shared 2-core machine move by tens of percent between runs.
// Progress goes to stderr; the human table and one JSON summary line go to stdout.
import { endProcess } from '../lib/end-process';
import { parseBulkArguments } from './bulk-options';
import { bulkBenchmark } from './bulk-summary';
import { flowsBenchmark } from './flows-summary';
import { gatewayBenchmark } from './gateway-summary';
import { listsBenchmark } from './lists';
import { parseListsArguments } from './lists-options';
import { openLoopFlowsBenchmark } from './open-loop-summary';
import { parseArguments, type BenchOptions, type BenchmarkName } from './options';
import { quoteBenchmark } from './quote-summary';
import { referenceIsValid, runReference } from './reference';
import { log, out } from './report';
import { webhooksBenchmark } from './webhooks-summary';

async function referenceBenchmark(options: BenchOptions): Promise<{ bench: string; valid: boolean }> {
  const result = await runReference({ connections: options.connections, durationSeconds: options.durationSeconds });
  out(
    `Reference flow: ${result.flows_per_s} flows/s, p50 ${result.req_p50_ms} ms, p99 ${result.req_p99_ms} ms (${options.connections} connections, ${options.durationSeconds} s)${referenceIsValid(result) ? '' : ' INVALID'}`,
  );
  return { bench: 'reference', ...result, valid: referenceIsValid(result) };
}

const benchmarks: Record<BenchmarkName, (options: BenchOptions) => Promise<{ valid: boolean | null }>> = {
  gateway: gatewayBenchmark,
  quote: quoteBenchmark,
  flows: (options) => (options.openLoop ? openLoopFlowsBenchmark(options) : flowsBenchmark(options)),
  webhooks: webhooksBenchmark,
  reference: referenceBenchmark,
};

async function main(): Promise<void> {
  if (process.argv[2] === 'lists') {
    const summary = await listsBenchmark(parseListsArguments(process.argv.slice(3), process.env), log);
    out(JSON.stringify(summary));
    process.exitCode = summary.valid ? 0 : 1;
    return;
  }
  if (process.argv[2] === 'bulk') {
    const summary = await bulkBenchmark(parseBulkArguments(process.argv.slice(3), process.env), log);
    out('');
    out(JSON.stringify(summary));
    process.exitCode = summary.valid ? 0 : 1;
    return;
  }
  const options = parseArguments(process.argv.slice(2), process.env);
  const summaries: { valid: boolean | null }[] = [];
  // Our benchmarks already run the reference themselves.
  const names = options.names.some((name) => name !== 'reference') ? options.names.filter((name) => name !== 'reference') : options.names;
  for (const name of names) {
    try {
      summaries.push(await benchmarks[name](options));
    } catch (error) {
      // One benchmark failing does not hide the others' figures.
      const message = (error as Error).message;
      log(`${name} benchmark failed: ${message}`);
      summaries.push({ bench: name, valid: false, error: message } as { valid: boolean });
    }
  }
  out('');
  for (const summary of summaries) out(JSON.stringify(summary));
  process.exitCode = summaries.some((summary) => summary.valid === false) ? 1 : 0;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // Children share the terminal's process group and get the signal too; exit once they are gone.
    if (interrupted) endProcess(130);
    interrupted = true;
    log(`${signal}: stopping (again to force)`);
    setTimeout(() => endProcess(130), 20_000).unref();
  });
}

main().catch((error: unknown) => {
  log(`bench failed: ${(error as Error).message}`);
  process.exitCode = 1;
});
