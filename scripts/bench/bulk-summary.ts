// The bulk benchmark's summary (bulk.ts measures): its table and its JSON line.
import type { BulkBenchOptions } from './bulk-options';
import type { Log } from './bench-stack';
import { runBulkBenchmark, type BulkBenchMeasurements, type CpuUse, type LabelledReference, type SinglesMeasurement } from './bulk';
import { configurationFields, describeConfiguration } from './configuration';
import { cpuMsPer } from './cpu';
import { format } from './measure';
import { describeCpu, machine, out, over, referenceFields, referenceSummary, round, roundAll, row } from './report';

/** Issue 20: bulk items/s at least this many times the single-transfer flows/s of the same run. */
const targetBulkPerSingle = 5;

/** CPU ms per unit (item, flow) per process, and the cores busy meanwhile. */
function cpuFigures(cpu: CpuUse | undefined, units: number) {
  return {
    cpu_ms: cpu ? roundAll(cpuMsPer([cpu], units)) : null,
    cores_busy: cpu ? { ours: round(cpu.ourCores, 2), other_processes: round(cpu.otherCores, 2) } : null,
  };
}

function singleFigures(flow: SinglesMeasurement) {
  return {
    flows_per_s: round(flow.flowsPerSecond, 0),
    flows: flow.flows,
    req_p50_ms: round(flow.p50Ms),
    req_p99_ms: round(flow.p99Ms),
    non2xx: flow.non2xx,
    errors: flow.errors + flow.timeouts,
    unexpected: flow.unexpected,
    ...(flow.firstFailure ? { first_failure: flow.firstFailure } : {}),
    ...cpuFigures(flow.cpu, flow.flows),
    valid: flow.valid,
  };
}

function referenceRuns(references: readonly LabelledReference[]) {
  return references.map(({ label, sourceAccounts, result, error }) => ({
    label,
    ...(sourceAccounts === undefined ? {} : { source_accounts: sourceAccounts }),
    ...(result ? { flows_per_s: result.flows_per_s, non2xx: result.non2xx, errors: result.errors } : { error }),
  }));
}

function bulkSummary(options: BulkBenchOptions, measured: BulkBenchMeasurements) {
  const { bulk, singles, hotRow } = measured;
  const reference = referenceSummary(measured.references.map((run) => run.result));
  const hotReference = hotRow ? referenceSummary(hotRow.references.map((run) => run.result)) : undefined;
  const singlesFigures = singleFigures(singles);
  const bulkPerSingle = singles.valid ? over(bulk.itemsPerSecond, singles.flowsPerSecond) : null;
  const hot = hotRow && {
    reference_one_account_flows_per_s: hotReference ? round(hotReference.flowsPerSecond, 0) : null,
    reference_one_account_runs: hotReference ? hotReference.runs : [],
    group_commit_after: hotRow.groupCommitAfter,
    after_group_commit: { ...singleFigures(hotRow.after), per_reference_flow: round(over(hotRow.after.flowsPerSecond, hotReference?.flowsPerSecond)) },
    before_group_commit: { ...singleFigures(hotRow.before), wallet_group_commit_max_items: '0', per_reference_flow: round(over(hotRow.before.flowsPerSecond, hotReference?.flowsPerSecond)) },
    after_over_before: round(over(hotRow.after.flowsPerSecond, hotRow.before.flowsPerSecond)),
    valid: hotRow.after.valid && hotRow.before.valid,
  };
  const valid = bulk.valid && singles.valid && (hot?.valid ?? true);
  return {
    bench: 'bulk',
    ...machine(),
    ...configurationFields(options.configuration, { environment: 'sandbox' }),
    load_average_before: measured.loadBefore,
    load_average_after: measured.loadAfter,
    bulks: options.bulks,
    items_per_bulk: options.items,
    transfers_sent: 'back to back, each awaited (quotes made before the clock starts)',
    users: measured.users,
    connections: options.connections,
    duration_s: options.durationSeconds,
    bulk: {
      items_per_s: round(bulk.itemsPerSecond, 0),
      completed_items: bulk.completedItems,
      failed_items: bulk.failedItems,
      elapsed_s: round(bulk.elapsedSeconds),
      observed_final_s: round(bulk.observedSeconds),
      quote_s: round(bulk.quoteSeconds),
      quote_ms_per_bulk: round((bulk.quoteSeconds * 1000) / Math.max(1, bulk.bulks.length), 0),
      transfer_calls_s: round(bulk.transferCallsSeconds),
      statuses: bulk.bulks.map((run) => run.status ?? null),
      completed_after_s: bulk.bulks.map((run) => round(run.completedAfterSeconds, 2)),
      ...cpuFigures(bulk.cpu, bulk.completedItems),
      polls: bulk.polls,
      poll_non2xx: bulk.pollNon2xx,
      ...(bulk.firstFailure ? { first_failure: bulk.firstFailure } : {}),
      valid: bulk.valid,
    },
    singles: singlesFigures,
    ...referenceFields(reference),
    reference_detail: referenceRuns(measured.references),
    hot_row: hot ?? null,
    hot_row_reference_detail: hotRow ? referenceRuns(hotRow.references) : [],
    ratios: {
      bulk_items_per_single_flow: round(bulkPerSingle),
      bulk_items_per_reference_flow: round(over(bulk.itemsPerSecond, reference?.flowsPerSecond)),
      singles_per_reference_flow: round(over(singles.flowsPerSecond, reference?.flowsPerSecond)),
      hot_row_after_group_commit_per_reference_flow_one_account: hot?.after_group_commit.per_reference_flow ?? null,
      hot_row_before_group_commit_per_reference_flow_one_account: hot?.before_group_commit.per_reference_flow ?? null,
    },
    ...(measured.bulkPgWaits ? { bulk_pg_waits: measured.bulkPgWaits } : {}),
    target: { bulk_items_per_single_flow: targetBulkPerSingle },
    meets_target: valid && bulkPerSingle !== null && bulkPerSingle >= targetBulkPerSingle,
    valid,
  };
}

type BulkSummary = ReturnType<typeof bulkSummary>;

export async function bulkBenchmark(options: BulkBenchOptions, log: Log): Promise<BulkSummary> {
  log(`starting the bulk bench stack (auth, wallet, quotes, collections, disbursements, gateway; sandbox; ${options.users} users)`);
  const measured = await runBulkBenchmark(options, { log });
  log('bulk bench stack stopped');
  const summary = bulkSummary(options, measured);
  printBulkTable(summary);
  return summary;
}

function printBulkTable(summary: BulkSummary): void {
  const line = (cells: readonly (string | number | null)[]): void => row(cells.map((cell) => cell ?? 'n/a'), 44, 16);
  const invalid = (valid: boolean): string => (valid ? '' : ' INVALID');
  out('');
  out(
    `Bulk benchmark: ${summary.bulks} bulks x ${summary.items_per_bulk} items for one partner (USD, ${summary.users} users), transfers sent ${summary.transfers_sent}; ` +
      `singles: ${summary.connections} connections x ${summary.duration_s} s (node ${summary.node}, ${summary.cpus} CPUs, ${String(summary.cpu_model)}; load ${summary.load_average_before} before, ${summary.load_average_after} after)`,
  );
  out(describeConfiguration(summary.configuration));
  line(['', 'per second', 'per reference', 'valid']);
  line([`bulk items/s (first transfer -> last final)`, summary.bulk.items_per_s, summary.ratios.bulk_items_per_reference_flow, `${summary.bulk.valid}`]);
  line(['single-transfer flows/s', summary.singles.flows_per_s, summary.ratios.singles_per_reference_flow, `${summary.singles.valid}`]);
  line(['reference flows/s', summary.reference_flows_per_s, summary.reference_flows_per_s === null ? null : '1', '']);
  if (summary.hot_row) {
    const hot = summary.hot_row;
    line(['hot row, group commit on (after) flows/s', hot.after_group_commit.flows_per_s, hot.after_group_commit.per_reference_flow, `${hot.after_group_commit.valid}`]);
    line(['hot row, group commit off (before) flows/s', hot.before_group_commit.flows_per_s, hot.before_group_commit.per_reference_flow, `${hot.before_group_commit.valid}`]);
    line(['reference, REF_SOURCE_ACCOUNTS=1, flows/s', hot.reference_one_account_flows_per_s, hot.reference_one_account_flows_per_s === null ? null : '1', '']);
  }
  out('');
  out(
    `Bulk: ${summary.bulk.completed_items} items completed, ${summary.bulk.failed_items} failed, in ${format(summary.bulk.elapsed_s)} s ` +
      `(seen final by the poll after ${format(summary.bulk.observed_final_s)} s); quotes (before the clock) ${format(summary.bulk.quote_s)} s, ${summary.bulk.quote_ms_per_bulk ?? 'n/a'} ms per bulk; ` +
      `transfer calls ${format(summary.bulk.transfer_calls_s)} s; statuses ${summary.bulk.statuses.join(', ')}; poll non-2xx ${summary.bulk.poll_non2xx}.` +
      `${summary.bulk.valid ? '' : ` INVALID (first failure: ${summary.bulk.first_failure ?? 'none'})`}`,
  );
  out(`Bulks' completedAt, s after the first transfer call: ${summary.bulk.completed_after_s.map((value) => format(value)).join(', ')}.`);
  const cpuLine = (what: string, figures: ReturnType<typeof cpuFigures>): void => {
    if (!figures.cpu_ms || !figures.cores_busy) return;
    out(`CPU ms per ${what}: ${describeCpu(figures.cpu_ms)}; cores busy: ours ${format(figures.cores_busy.ours)}, other processes ${format(figures.cores_busy.other_processes)}.`);
  };
  cpuLine('bulk item', summary.bulk);
  cpuLine('single flow', summary.singles);
  if (summary.hot_row) {
    cpuLine('hot-row flow, group commit on', summary.hot_row.after_group_commit);
    cpuLine('hot-row flow, group commit off', summary.hot_row.before_group_commit);
  }
  if (summary.bulk_pg_waits) {
    out(`Postgres sessions while the bulks were processed (average busy sessions, ${summary.bulk_pg_waits.samples} samples; service | state):`);
    for (const entry of summary.bulk_pg_waits.states) out(`  ${format(entry.sessions)}  ${entry.what}`);
    for (const entry of summary.bulk_pg_waits.lock_waits) out(`  lock wait ${format(entry.sessions)}  ${entry.what}`);
  }
  out(
    `Singles: per request p50 ${format(summary.singles.req_p50_ms)} ms, p99 ${format(summary.singles.req_p99_ms)} ms; non-2xx ${summary.singles.non2xx}, errors ${summary.singles.errors}, unexpected ${summary.singles.unexpected}` +
      `${invalid(summary.singles.valid)}${summary.singles.first_failure ? ` (first: ${summary.singles.first_failure})` : ''}.`,
  );
  out(`Reference runs: ${summary.reference_detail.map((run) => `${run.label} ${'flows_per_s' in run ? run.flows_per_s : `failed: ${String(run.error)}`}`).join('; ')}.`);
  if (summary.hot_row) {
    const hot = summary.hot_row;
    out(
      `Hot row: every single transfer debits the partner's one USD account; after = wallet group commit ${hot.group_commit_after}, before = WALLET_GROUP_COMMIT_MAX_ITEMS=0 (wallet restarted); ` +
        `after/before ${format(hot.after_over_before)}. Reference runs (REF_SOURCE_ACCOUNTS=1): ${summary.hot_row_reference_detail.map((run) => `${run.label} ${'flows_per_s' in run ? run.flows_per_s : `failed: ${String(run.error)}`}`).join('; ')}.` +
        `${hot.valid ? '' : ` INVALID (first: ${hot.after_group_commit.first_failure ?? hot.before_group_commit.first_failure ?? 'none'})`}`,
    );
  }
  out(
    `Headline: bulk items/s / single-transfer flows/s = ${format(summary.ratios.bulk_items_per_single_flow)} (target >= ${summary.target.bulk_items_per_single_flow}): ` +
      `${summary.meets_target ? 'MET' : 'NOT MET'}${summary.valid ? '' : ' (INVALID run)'}.`,
  );
}
