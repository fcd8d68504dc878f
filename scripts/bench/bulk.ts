// Bulk benchmark (issue 20): `npm run bench -- bulk`. One stack (the flows benchmark's: flows.ts
// startFlowsStack, sandbox, one partner funded for hours of flows, N Platinum users with the
// Platinum count and amount limits raised so few users can receive many items), and in one run:
//
//   1. bulk        N bulks of M items of that one partner, in USD, items round-robin over the
//                  users. Every bulk is quoted first (the quotes' time is reported on its own), then
//                  the clock starts and the N transfers are sent back to back (each awaited: its 202
//                  comes back in milliseconds, nothing is posted in the call), and the bulks are
//                  polled (GET .../bulk/{bulkId}?limit=1, the oldest unfinished one) until every one
//                  is final. Items/s = completed items / (the last bulk's completedAt - the first
//                  transfer call). Valid only when every item of every bulk completed.
//   2. singles     the flows benchmark's disbursement flow (quote + transfer, measureFlow) with its
//                  connections and duration, spread over the users x both currencies as there.
//   3. reference   the shared reference flow before the singles and after the bulks; bulk items/s
//                  and singles flows/s as ratios to their mean.
//   0. first       two warm-up bulks of M items and a warm-up of the flow, then ANALYZE (analyzeDatabase).
//   4. hot row     the single-transfer flow with every call debiting the partner's one USD float
//                  account: first with the wallet as started (group commit at its default, "after"),
//                  then with the wallet restarted with WALLET_GROUP_COMMIT_MAX_ITEMS=0 ("before"),
//                  each as a ratio to the reference run with REF_SOURCE_ACCOUNTS=1 (before and after
//                  the two).
//
// Headline: bulk items/s / singles flows/s (target >= 5). bulk-summary.ts prints the table and the
// JSON line.
import os from 'node:os';
import { Pool } from 'pg';
import { asRecord, request, sleep } from '../lib/http';
import { benchCpuMeter, guardAgainstDeath, restartService, stopBenchStack, type Log } from './bench-stack';
import type { BulkBenchOptions } from './bulk-options';
import { machineBusySeconds, totalSeconds, type CpuMeter, type CpuSeconds } from './cpu';
import { checkFlows, drainMs, measureFlow, oneAccountFlows, pgWaitSampler, flowProcessNames, startFlowsStack, type FlowMeasurement, type FlowsBenchStack, type PgWaits } from './flows';
import { quoteAmounts } from './quote';
import { referenceAvailable, referenceIsValid, referenceScript, runReference, type ReferenceResult } from './reference';

const bulkCurrency = 'USD';
/** How often the oldest unfinished bulk is read while the bulks are processed. */
const pollIntervalMs = 200;
/**
 * Warm-up bulks (of the measured size): they run the bulk paths once and give the tables rows in
 * every state before the ANALYZE (analyzeDatabase).
 */
const warmupBulks = 2;

/** One bulk as measured: its quote, its transfer and its final reading. */
export interface BulkRun {
  bulkId: string | undefined;
  items: number;
  quoteMs: number;
  validCount: number;
  transferStatus: number | undefined;
  status: string | undefined;
  counts: { total: number; pending: number; completed: number; failed: number } | undefined;
  completedAt: string | null | undefined;
  /** When the poll saw it final, ms after the first transfer call. */
  seenFinalAfterMs: number | undefined;
  /** Its completedAt, seconds after the first transfer call. */
  completedAfterSeconds: number | null;
}

/** CPU seconds per process while measuring, and the cores busy: ours (the stack, Postgres backends, the load generator) and everything else. */
export interface CpuUse {
  cpuSeconds: CpuSeconds;
  ourCores: number;
  otherCores: number | null;
}

/** Runs `work` under the meter (when given); the seconds it took come from the work's own result. */
async function metered<Result>(meter: CpuMeter | undefined, work: () => Promise<Result>, seconds: (result: Result) => number | null): Promise<Result & { cpu: CpuUse | undefined }> {
  if (!meter) return { ...(await work()), cpu: undefined };
  await meter.start();
  const machineBefore = machineBusySeconds();
  const result = await work();
  const machineAfter = machineBusySeconds();
  const cpuSeconds = await meter.stop();
  const elapsed = seconds(result);
  const ours = totalSeconds(cpuSeconds);
  if (elapsed === null || elapsed <= 0) return { ...result, cpu: undefined };
  const other = machineBefore !== undefined && machineAfter !== undefined ? Math.max(0, machineAfter - machineBefore - ours) / elapsed : null;
  return { ...result, cpu: { cpuSeconds, ourCores: ours / elapsed, otherCores: other } };
}

export interface BulkMeasurement {
  bulks: BulkRun[];
  /** Sum of the quote calls' times (sequential, before the clock). */
  quoteSeconds: number;
  /** The transfer calls' time, back to back. */
  transferCallsSeconds: number;
  /** From the first transfer call to the last bulk's completedAt (the service's clock, the same machine). */
  elapsedSeconds: number | null;
  /** From the first transfer call to the poll seeing the last bulk final. */
  observedSeconds: number | null;
  completedItems: number;
  failedItems: number;
  itemsPerSecond: number | null;
  polls: number;
  pollNon2xx: number;
  firstFailure: string | undefined;
  valid: boolean;
  /** While the bulks were processed (from the first transfer call to the poll seeing the last final). */
  cpu: CpuUse | undefined;
}

function numberOf(value: unknown): number {
  return typeof value === 'number' ? value : Number.NaN;
}

function countsOf(value: unknown): BulkRun['counts'] {
  const counts = asRecord(value);
  if (!counts) return undefined;
  return { total: numberOf(counts.total), pending: numberOf(counts.pending), completed: numberOf(counts.completed), failed: numberOf(counts.failed) };
}

async function call(stack: FlowsBenchStack, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> | undefined; text: string }> {
  const answer = await request(`${stack.gatewayBaseUrl}${path}`, { method, headers: stack.headers, ...(body === undefined ? {} : { body }), ca: stack.ca, timeoutMs: 60_000 });
  return { status: answer.status, data: asRecord(asRecord(answer.json)?.data), text: answer.text };
}

/**
 * Quotes `bulks` bulks of `items` items each (one after another), then sends their transfers back
 * to back and polls until every bulk is final. `label` keeps externalIds apart between calls.
 */
export async function measureBulks(stack: FlowsBenchStack, { bulks, items, label, log, meter }: { bulks: number; items: number; label: string; log: Log; meter?: CpuMeter }): Promise<BulkMeasurement> {
  let firstFailure: string | undefined;
  const fail = (message: string): void => {
    firstFailure ??= message;
  };
  const runs: (BulkRun & { bulkQuoteId: string | undefined })[] = [];
  const amount = quoteAmounts[bulkCurrency].api;
  for (let bulk = 0; bulk < bulks; bulk += 1) {
    const body = {
      currency: bulkCurrency,
      items: Array.from({ length: items }, (_, index) => ({
        phone: stack.phones[(bulk * items + index) % stack.phones.length],
        amount,
        externalId: `bulk-${stack.runId}-${label}-${bulk}-${index}`,
        note: 'bench',
      })),
    };
    const started = performance.now();
    const answer = await call(stack, 'POST', '/partner/v1/disbursement/bulk/quote', body);
    const quoteMs = performance.now() - started;
    const bulkQuoteId = typeof answer.data?.bulkQuoteId === 'string' ? answer.data.bulkQuoteId : undefined;
    const validCount = numberOf(answer.data?.validCount);
    if (answer.status !== 200 || !bulkQuoteId) fail(`bulk quote ${bulk}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
    else if (validCount !== items) {
      const invalid = (Array.isArray(answer.data?.items) ? answer.data.items : []).map(asRecord).find((item) => item?.status !== 'valid');
      fail(`bulk quote ${bulk}: ${validCount} of ${items} items valid (first invalid: ${JSON.stringify(invalid).slice(0, 300)})`);
    }
    runs.push({ bulkId: undefined, bulkQuoteId, items, quoteMs, validCount, transferStatus: undefined, status: undefined, counts: undefined, completedAt: undefined, seenFinalAfterMs: undefined, completedAfterSeconds: null });
  }
  const quoteSeconds = runs.reduce((sum, run) => sum + run.quoteMs, 0) / 1000;
  log(`  ${label}: ${bulks} bulk quotes of ${items} items in ${quoteSeconds.toFixed(2)} s; sending the transfers back to back`);

  const processed = await metered(meter, () => transferAndAwait(stack, runs, { label, fail }), (result) => result.observedSeconds);
  const { polls, pollNon2xx, transferCallsSeconds, observedSeconds, startedAtEpoch, unfinished } = processed;
  const finals = runs.filter((run) => run.seenFinalAfterMs !== undefined);
  const completedItems = finals.reduce((sum, run) => sum + (run.counts?.completed ?? 0), 0);
  const failedItems = finals.reduce((sum, run) => sum + (run.counts?.failed ?? 0), 0);
  for (const run of finals) run.completedAfterSeconds = run.completedAt ? (Date.parse(run.completedAt) - startedAtEpoch) / 1000 : null;
  const completedAts = finals.flatMap((run) => (run.completedAfterSeconds === null ? [] : [run.completedAfterSeconds]));
  const elapsedSeconds = finals.length > 0 && completedAts.length === finals.length ? Math.max(...completedAts) : null;
  if (unfinished > 0) fail(`${unfinished} bulks still processing at the deadline`);
  for (const run of finals) {
    if (run.status !== 'completed' || run.counts?.completed !== run.items || run.counts.failed !== 0) fail(`bulk ${run.bulkId ?? ''}: ${run.status ?? '?'} ${JSON.stringify(run.counts)}`);
  }
  const valid = firstFailure === undefined && finals.length === bulks && completedItems === bulks * items && failedItems === 0;
  const seconds = elapsedSeconds ?? observedSeconds;
  return {
    bulks: runs.map(({ bulkQuoteId: _quote, ...run }) => run),
    quoteSeconds,
    transferCallsSeconds,
    elapsedSeconds,
    observedSeconds,
    completedItems,
    failedItems,
    itemsPerSecond: seconds !== null && seconds > 0 ? completedItems / seconds : null,
    polls,
    pollNon2xx,
    firstFailure,
    valid,
    cpu: processed.cpu,
  };
}

/**
 * The clocked part: sends the quoted bulks' transfers back to back (each awaited), then reads the
 * oldest unfinished bulk every pollIntervalMs until every one is final or the deadline passes.
 */
async function transferAndAwait(
  stack: FlowsBenchStack,
  runs: (BulkRun & { bulkQuoteId: string | undefined })[],
  { label, fail }: { label: string; fail: (message: string) => void },
): Promise<{ startedAtEpoch: number; transferCallsSeconds: number; observedSeconds: number | null; polls: number; pollNon2xx: number; unfinished: number }> {
  const startedAtEpoch = Date.now();
  const started = performance.now();
  for (const [bulk, run] of runs.entries()) {
    if (!run.bulkQuoteId) continue;
    const answer = await call(stack, 'POST', '/partner/v1/disbursement/bulk/transfer', { bulkQuoteId: run.bulkQuoteId, externalId: `bulk-${stack.runId}-${label}-${bulk}` });
    run.transferStatus = answer.status;
    run.bulkId = typeof answer.data?.bulkId === 'string' ? answer.data.bulkId : undefined;
    if (answer.status !== 202 || !run.bulkId) fail(`bulk transfer ${bulk}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  }
  const transferCallsSeconds = (performance.now() - started) / 1000;

  const totalItems = runs.reduce((sum, run) => sum + (run.bulkId ? run.items : 0), 0);
  const deadline = started + 60_000 + totalItems * 30;
  const unfinished = runs.filter((run) => run.bulkId !== undefined);
  let polls = 0;
  let pollNon2xx = 0;
  while (unfinished.length > 0 && performance.now() < deadline) {
    guardAgainstDeath(stack);
    const run = unfinished[0] as BulkRun;
    const answer = await call(stack, 'GET', `/partner/v1/disbursement/bulk/${encodeURIComponent(run.bulkId ?? '')}?limit=1`);
    polls += 1;
    if (answer.status !== 200) {
      pollNon2xx += 1;
      fail(`bulk read ${run.bulkId ?? ''}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
      await sleep(pollIntervalMs);
      continue;
    }
    const status = typeof answer.data?.status === 'string' ? answer.data.status : undefined;
    if (status === 'processing') {
      await sleep(pollIntervalMs);
      continue;
    }
    run.status = status;
    run.counts = countsOf(answer.data?.counts);
    run.completedAt = typeof answer.data?.completedAt === 'string' ? answer.data.completedAt : null;
    run.seenFinalAfterMs = performance.now() - started;
    unfinished.shift();
  }
  const finals = runs.filter((run) => run.seenFinalAfterMs !== undefined);
  const observedSeconds = unfinished.length === 0 && finals.length > 0 ? Math.max(...finals.map((run) => run.seenFinalAfterMs ?? 0)) / 1000 : null;
  return { startedAtEpoch, transferCallsSeconds, observedSeconds, polls, pollNon2xx, unfinished: unfinished.length };
}

export type SinglesMeasurement = FlowMeasurement & { valid: boolean; cpu: CpuUse | undefined };

/** A single-transfer (disbursement) flow measurement, then the drain; its validity as the flows benchmark judges it. */
export async function measureSingles(
  stack: FlowsBenchStack,
  { connections, durationSeconds, meter }: { connections: number; durationSeconds: number; meter?: CpuMeter },
): Promise<SinglesMeasurement> {
  const measured = await metered(meter, () => measureFlow(stack, 'disbursement', { connections, durationSeconds }), (result) => result.durationSeconds);
  await sleep(drainMs);
  guardAgainstDeath(stack);
  return { ...measured, valid: measured.flows > 0 && measured.non2xx === 0 && measured.errors === 0 && measured.timeouts === 0 && measured.unexpected === 0 };
}

export interface LabelledReference {
  label: string;
  sourceAccounts: number | undefined;
  result: ReferenceResult | undefined;
  error: string | undefined;
}

export interface BulkBenchMeasurements {
  users: number;
  bulk: BulkMeasurement;
  warmupBulk: BulkMeasurement;
  singles: SinglesMeasurement;
  /** --pg-waits: what the Postgres sessions did while the bulks were processed. */
  bulkPgWaits: PgWaits | undefined;
  references: LabelledReference[];
  hotRow:
    | {
        after: SinglesMeasurement;
        before: SinglesMeasurement;
        references: LabelledReference[];
        groupCommitAfter: string;
      }
    | undefined;
  loadBefore: string;
  loadAfter: string;
}

/**
 * ANALYZE of the whole bench database after seeding and warm-up. The database is minutes old:
 * autovacuum (a minute's nap) has not analyzed the tables yet, and a session's cached plans (the
 * wallet's trigger functions' among them) chosen for near-empty tables would then scan tables that
 * grow by thousands of rows during the run; a database in service has statistics.
 */
async function analyzeDatabase(monitor: Pool, log: Log): Promise<void> {
  const started = performance.now();
  await monitor.query('ANALYZE');
  log(`ANALYZE of the bench database: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The machine's load averages as uptime prints them. */
export function loadAverages(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
}

/**
 * Starts the stack, checks a flow of each kind and a small bulk, warms up, measures (reference,
 * singles, bulks, reference; then the hot row), and stops everything it started.
 */
export async function runBulkBenchmark(options: BulkBenchOptions, { log }: { log: Log }): Promise<BulkBenchMeasurements> {
  const loadBefore = loadAverages();
  const stack = await startFlowsStack({ cpuProfile: [], configuration: options.configuration }, { log, users: options.users, databaseName: 'partner_wallet_bench_bulk' });
  const monitor = new Pool({ connectionString: stack.databaseUrl, max: 1, application_name: 'bench-cpu-monitor' });
  const meter = benchCpuMeter(stack, monitor, flowProcessNames(options.configuration));
  const reference = async (label: string, sourceAccounts?: number): Promise<LabelledReference> => {
    if (!options.reference) return { label, sourceAccounts, result: undefined, error: 'not run (--no-reference)' };
    if (!referenceAvailable()) return { label, sourceAccounts, result: undefined, error: `not found at ${referenceScript()}` };
    log(`reference flow (${label}): ${options.connections} connections, ${options.durationSeconds} s${sourceAccounts === undefined ? '' : `, REF_SOURCE_ACCOUNTS=${sourceAccounts}`}`);
    try {
      const result = await runReference({ connections: options.connections, durationSeconds: options.durationSeconds, ...(sourceAccounts === undefined ? {} : { sourceAccounts }) });
      log(`  reference ${label}: ${result.flows_per_s} flows/s${referenceIsValid(result) ? '' : ' (INVALID: non-2xx or errors)'}`);
      guardAgainstDeath(stack);
      return { label, sourceAccounts, result, error: undefined };
    } catch (error) {
      log(`  reference ${label} failed: ${(error as Error).message}`);
      return { label, sourceAccounts, result: undefined, error: (error as Error).message };
    }
  };
  const singles = (label: string): Promise<SinglesMeasurement> =>
    measureSingles(stack, { connections: options.connections, durationSeconds: options.durationSeconds, meter }).then((result) => {
      log(
        `  ${label}: ${result.flowsPerSecond.toFixed(0)} flows/s (${result.flows} flows), p50 ${result.p50Ms?.toFixed(1) ?? 'n/a'} ms, p99 ${result.p99Ms?.toFixed(1) ?? 'n/a'} ms per request` +
          `${result.valid ? '' : `, INVALID: non-2xx ${result.non2xx}, errors ${result.errors + result.timeouts}, unexpected ${result.unexpected} (first: ${result.firstFailure ?? 'none'})`}`,
      );
      return result;
    });
  const warmUp = async (): Promise<void> => {
    await measureFlow(stack, 'disbursement', { connections: options.connections, durationSeconds: options.warmupSeconds });
    await sleep(drainMs);
    guardAgainstDeath(stack);
  };
  try {
    await checkFlows(stack, { log });
    log(`warm-up: ${options.warmupSeconds} s of disbursement flows on ${options.connections} connections, and ${warmupBulks} bulks of ${options.items} items`);
    await warmUp();
    const warmupBulk = await measureBulks(stack, { bulks: warmupBulks, items: options.items, label: 'warmup', log });
    if (!warmupBulk.valid) throw new Error(`the warm-up bulk did not complete: ${warmupBulk.firstFailure ?? 'no failure recorded'}`);
    log(`  warm-up bulk: ${warmupBulk.completedItems} items in ${warmupBulk.elapsedSeconds?.toFixed(2) ?? 'n/a'} s`);
    await sleep(drainMs);
    await analyzeDatabase(monitor, log);

    const references = [await reference('before the singles')];
    log(`singles: ${options.durationSeconds} s of disbursement flows (quote + transfer), ${options.connections} connections, ${stack.flowTargets.length} users x currencies`);
    const singlesResult = await singles('singles');
    log(`bulk: ${options.bulks} bulks of ${options.items} items, one partner, ${bulkCurrency}, over ${stack.phones.length} users`);
    const waits = options.pgWaits ? pgWaitSampler(monitor) : undefined;
    waits?.start();
    const bulk = await measureBulks(stack, { bulks: options.bulks, items: options.items, label: 'measured', log, meter });
    waits?.stop();
    log(
      `  bulk: ${bulk.completedItems} items completed, ${bulk.failedItems} failed, in ${bulk.elapsedSeconds?.toFixed(2) ?? 'n/a'} s: ${bulk.itemsPerSecond?.toFixed(0) ?? 'n/a'} items/s` +
        `${bulk.valid ? '' : ` INVALID (first failure: ${bulk.firstFailure ?? 'none'})`}`,
    );
    await sleep(drainMs);
    guardAgainstDeath(stack);
    references.push(await reference('after the bulks'));

    let hotRow: BulkBenchMeasurements['hotRow'];
    if (options.hotRow) {
      oneAccountFlows(stack, bulkCurrency);
      const groupCommitAfter = stack.env.WALLET_GROUP_COMMIT_MAX_ITEMS ?? '(the wallet default)';
      const hotReferences = [await reference('one account, before the hot-row flows', 1)];
      log(`hot row: every single transfer debits the partner's one ${bulkCurrency} account; wallet group commit ${groupCommitAfter}`);
      await warmUp();
      const after = await singles('hot row, group commit on');
      log('hot row: restarting the wallet with WALLET_GROUP_COMMIT_MAX_ITEMS=0');
      await restartService(stack, 'wallet', { WALLET_GROUP_COMMIT_MAX_ITEMS: '0' });
      await warmUp();
      const before = await singles('hot row, group commit off');
      hotReferences.push(await reference('one account, after the hot-row flows', 1));
      hotRow = { after, before, references: hotReferences, groupCommitAfter };
    }
    return { users: options.users, bulk, warmupBulk, singles: singlesResult, bulkPgWaits: waits?.report(), references, hotRow, loadBefore, loadAfter: loadAverages() };
  } finally {
    await monitor.end().catch(() => undefined);
    await stopBenchStack(stack, { log });
  }
}
