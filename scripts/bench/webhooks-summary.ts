// The webhooks benchmark's summary: its JSON line and its table (webhooks.ts measures).
import { configurationFields, describeConfiguration } from './configuration';
import { format } from './measure';
import type { BenchOptions } from './options';
import { log, machine, out, over, referenceFields, referenceRun, referenceSummary, round, roundAll, row, type ReferenceSummary } from './report';
import { runWebhooksBenchmark, type WebhooksMeasurements } from './webhooks';

function webhooksSummary(options: BenchOptions, measured: WebhooksMeasurements, reference: ReferenceSummary | undefined) {
  const { failures } = measured;
  const valid = failures.non2xx === 0 && failures.errors === 0 && failures.unexpected === 0 && measured.mismatches === 0 && measured.unparseable === 0 && measured.pending === 0;
  return {
    bench: 'webhooks',
    ...machine(),
    ...configurationFields(options.configuration, { environment: 'sandbox', webhooks: 'own receiver' }),
    connections: options.connections,
    duration_s: options.durationSeconds,
    rounds: options.rounds,
    users: measured.users,
    deliveries_per_s: round(measured.deliveriesPerSecond, 0),
    status_changes_per_s: round(measured.statusChangesPerSecond, 0),
    runs: measured.rounds.map((run) => ({ deliveries_per_s: round(run.deliveriesPerSecond, 0), status_changes_per_s: round(run.statusChangesPerSecond, 0), backlog_at_end: run.backlogAtEnd })),
    delay_ms: { p50: round(measured.delay.p50Ms), p99: round(measured.delay.p99Ms), max: round(measured.delay.maxMs), samples: measured.delay.count },
    backlog_before_drain: measured.backlogBeforeDrain,
    drain_s: round(measured.drainSeconds, 2),
    drain_deliveries_per_s: round(measured.drainDeliveriesPerSecond, 0),
    events: measured.expected,
    delivered: measured.received,
    pending_at_end: measured.pending,
    duplicates: measured.duplicates,
    signature_mismatches: measured.mismatches,
    delivery_status_counts: measured.statusCounts,
    flow_failures: { non2xx: failures.non2xx, errors: failures.errors, unexpected: failures.unexpected, ...(failures.firstFailure ? { first: failures.firstFailure } : {}) },
    cores_busy: roundAll(measured.coresBusy),
    webhook_config: measured.webhookConfig,
    valid,
    ...referenceFields(reference),
    deliveries_per_reference_flow: reference ? round(over(measured.deliveriesPerSecond, reference.flowsPerSecond)) : null,
  };
}

type WebhooksSummary = ReturnType<typeof webhooksSummary>;

export async function webhooksBenchmark(options: BenchOptions): Promise<WebhooksSummary> {
  const before = await referenceRun(options, 'before');
  log(`starting the webhooks bench stack (auth, wallet, quotes, collections, disbursements, webhooks, gateway; sandbox; ${options.users ?? 64} users) and a receiver`);
  const measured = await runWebhooksBenchmark(options, { log });
  log('webhooks bench stack stopped');
  const after = await referenceRun(options, 'after');
  const summary = webhooksSummary(options, measured, referenceSummary([before, after]));
  printWebhooksTable(summary);
  return summary;
}

function printWebhooksTable(summary: WebhooksSummary): void {
  const line = (cells: readonly (string | number | null)[]): void => row(cells.map((cell) => cell ?? 'n/a'), 44, 14);
  out('');
  out(
    `Webhooks benchmark: disbursement flows through the gateway (${summary.connections} connections, ${summary.users} users x 2 currencies, sandbox), ` +
      `each completed transfer a signed webhook to a local receiver; ${summary.rounds} rounds of ${summary.duration_s} s (node ${summary.node}, ${summary.cpus} CPUs, ${String(summary.cpu_model)})`,
  );
  out(describeConfiguration(summary.configuration));
  line(['deliveries/s (first arrivals in the rounds)', summary.deliveries_per_s, `runs: ${summary.runs.map((run) => String(run.deliveries_per_s)).join(', ')}`]);
  line(['status changes/s (completed disbursements)', summary.status_changes_per_s, `runs: ${summary.runs.map((run) => String(run.status_changes_per_s)).join(', ')}`]);
  line(['status change -> first attempt p50 ms', format(summary.delay_ms.p50), `(${summary.delay_ms.samples} deliveries)`]);
  line(['status change -> first attempt p99 ms', format(summary.delay_ms.p99), `max ${format(summary.delay_ms.max)}`]);
  line(['backlog when the load stopped', summary.backlog_before_drain, `drained in ${format(summary.drain_s)} s${summary.drain_deliveries_per_s === null ? '' : ` (${summary.drain_deliveries_per_s}/s)`}`]);
  line(['pending after the drain wait', summary.pending_at_end, `of ${summary.events} events`]);
  line(['duplicates (webhook-id seen before)', summary.duplicates, '']);
  line(['signature mismatches', summary.signature_mismatches, '']);
  line(['reference flows/s (same run)', summary.reference_flows_per_s, `runs: ${summary.reference_runs.join(', ') || 'n/a'}`]);
  line(['deliveries/s per reference flow/s', summary.deliveries_per_reference_flow, '']);
  const cores = Object.entries(summary.cores_busy).sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0));
  out(`Cores busy during the rounds: ${cores.map(([name, value]) => `${name} ${format(value)}`).join(', ')}`);
  out(`Webhook deliveries by status at the end: ${JSON.stringify(summary.delivery_status_counts)}; webhooks config: ${Object.entries(summary.webhook_config).map(([key, value]) => `${key}=${value}`).join(', ')}`);
  const flowFailures = summary.flow_failures;
  out(
    `Flow non-2xx ${flowFailures.non2xx}, errors ${flowFailures.errors}, unexpected ${flowFailures.unexpected}.` +
      `${summary.valid ? '' : ` INVALID run (pending deliveries, signature mismatches or failed flows${flowFailures.first ? `; first failure: ${flowFailures.first}` : ''}).`}`,
  );
}
