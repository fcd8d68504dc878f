// Quote benchmark: POST /partner/v1/{disbursement,collection}/quote through the gateway (HTTPS,
// bearer token, partner check, Redis rate limit) into quotes and the wallet, next to the raw cost
// of the same database work (quote-raw.ts: the same statements on the same pools, without HTTP),
// measured in one run, interleaved (raw, gateway, raw, gateway), with the same connections and
// duration.
//
// The stack is started fresh on free ports with a throw-away database (bench-stack.ts): auth,
// wallet, quotes and the gateway as real processes (collections, disbursements and webhooks are
// not needed: their URLs point at free ports nobody listens on). One partner with a rate limit that
// never trips, funded in both currencies; N Platinum users with both wallets credited; Platinum
// limits raised so that no limit can refuse (a quote consumes no budget anyway, see
// services/wallet/README.md). Requests are spread round-robin over every user x type x currency, so
// no single row is hot.
//
// Before measuring, a check: the same number of quotes through the gateway and through the raw
// script must touch the wallet's and quotes' tables the same number of times
// (pg_stat_user_tables), or the raw figure would not be the cost of the same work.
import { fork } from 'node:child_process';
import path from 'node:path';
import { Pool } from 'pg';
import { asRecord, request, sleep } from '../lib/http';
import { runOperatorCliOrThrow } from '../lib/operator-cli';
import type { InternalServiceName } from '../lib/settings';
import {
  bearerToken,
  benchCpuMeter,
  failedStart,
  onboardBenchPartner,
  startBenchStack,
  startWebhookReceiver,
  stopBenchStack,
  type BenchPartner,
  type BenchStack,
  type Log,
} from './bench-stack';
import type { BenchConfiguration } from './configuration';
import { cpuMsPer, type CpuSeconds } from './cpu';
import { failuresOf, interleavedScenarios, summarise, type Scenario, type Summary } from './gateway';
import { format, measure, type Measured } from './measure';
import type { BenchOptions } from './options';
import type { RawWorkload, RawRunRequest, RawWorkerMessage } from './quote-raw';

const quoteTypes = ['disbursement', 'collection'] as const;
const currencies = ['LRD', 'USD'] as const;
export type QuoteType = (typeof quoteTypes)[number];
export type Currency = (typeof currencies)[number];
/** Amounts well inside every bound and the Platinum per-transaction limit; minor units as strings. */
export const quoteAmounts: Readonly<Record<Currency, { api: number; minor: string }>> = { USD: { api: 25, minor: '2500' }, LRD: { api: 4625, minor: '462500' } };
const partnerFunding: Readonly<Record<Currency, string>> = { USD: '1000000.00', LRD: '185000000.00' };
const userCredit: Readonly<Record<Currency, string>> = { USD: '100000.00', LRD: '18500000.00' };
const raisedLimit = '1000000000.00';
const raisedCount = '999999999';
/** Postgres flushes an idle backend's table counters within 10 s (PGSTAT_IDLE_INTERVAL). */
const statsFlushWaitMs = 11_500;
const cliParallelism = 4;

/** One quote of the workload; feeMinor is learnt from the gateway's answer before the raw runs. */
export interface WorkloadQuote {
  type: QuoteType;
  currency: Currency;
  phone: string;
  amount: number;
  amountMinor: string;
  feeMinor?: string;
}

export interface QuoteBenchStack extends BenchStack {
  partner: BenchPartner;
  /** authorization and content-type. */
  headers: Record<string, string>;
  gatewayBaseUrl: string;
  workload: WorkloadQuote[];
  phones: string[];
  readyAt: number;
}

/** Runs fn over items with at most `limit` at a time (the CLIs are processes; two cores). */
async function eachLimited<Item>(items: readonly Item[], limit: number, fn: (item: Item) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next] as Item;
      next += 1;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Phones +2317799NNNNN: valid Liberian mobile numbers, apart from the sandbox users'. */
function benchPhone(index: number): string {
  return `+2317799${String(index).padStart(5, '0')}`;
}

export interface QuoteStackOptions {
  log: Log;
  configuration: BenchConfiguration;
  users?: number | undefined;
  cpuProfile?: readonly string[];
  services?: readonly InternalServiceName[];
  databaseName?: string;
  environment?: 'sandbox' | 'production';
  funding?: Readonly<Record<Currency, string>>;
  /** Where the partner's webhooks go: a URL, npm start's local receiver (started here), or nowhere. */
  webhooks?: { url: string } | 'npm-start-receiver';
}

/**
 * Everything a measurement needs, started fresh: bench database, auth, wallet, quotes, gateway,
 * partner, users, limits, token, and the workload (every user x type x currency). The flows
 * benchmark (flows.ts) starts the same stack with more `services` (collections, disbursements), its
 * own database, ENVIRONMENT and partner funding (and, as npm start, webhooks and its receiver); the
 * webhooks benchmark (webhooks.ts) adds webhooks and onboards the partner with its own receiver's URL.
 */
export async function startQuoteStack({
  log,
  configuration,
  users = 16,
  cpuProfile = [],
  services = ['auth', 'wallet', 'quotes'],
  databaseName = 'partner_wallet_bench_quote',
  environment,
  funding = partnerFunding,
  webhooks,
}: QuoteStackOptions): Promise<QuoteBenchStack> {
  const stack = await startBenchStack({ log, databaseName, needs: [...services, 'gateway'], configuration, cpuProfile, ...(environment ? { environment } : {}) });
  try {
    const { local, settings } = stack;
    await local.startServices(services);
    log(`${services.join(', ')} ready on ${services.map((name) => settings.services.find((service) => service.name === name)?.port).join(', ')}`);
    const receiver = webhooks === 'npm-start-receiver' ? await startWebhookReceiver(stack) : undefined;
    const webhookUrl = receiver?.url ?? (typeof webhooks === 'object' ? webhooks.url : undefined);
    const partner = await onboardBenchPartner(stack, webhookUrl ? { webhookUrl } : {});
    receiver?.recordPartner(partner);
    const gateway = await local.startGateway();
    log(`gateway ready on ${gateway.baseUrl} (admin ${gateway.adminUrl})`);

    const phones = Array.from({ length: users }, (_, index) => benchPhone(index + 1));
    await seed({ log, cliEnv: local.operatorEnvironment(), partnerId: partner.partnerId, phones, funding });

    const headers = { authorization: await bearerToken(stack, gateway.baseUrl, partner), 'content-type': 'application/json' };
    // Every user x type x currency; consecutive requests go to different users.
    const workload = quoteTypes.flatMap((type) =>
      currencies.flatMap((currency) => phones.map((phone) => ({ type, currency, phone, amount: quoteAmounts[currency].api, amountMinor: quoteAmounts[currency].minor }))),
    );
    return { ...stack, partner, headers, gatewayBaseUrl: gateway.baseUrl, workload, phones, readyAt: Date.now() };
  } catch (error) {
    return failedStart(stack, error, { log });
  }
}

/** Partner funding, Platinum limits raised in every type and currency, users with both wallets credited. */
async function seed({ log, cliEnv, partnerId, phones, funding }: { log: Log; cliEnv: NodeJS.ProcessEnv; partnerId: string; phones: readonly string[]; funding: Readonly<Record<Currency, string>> }): Promise<void> {
  const started = Date.now();
  for (const currency of currencies) {
    await runOperatorCliOrThrow(['fund-partner', partnerId, currency, funding[currency], '--reference', 'bench'], cliEnv);
  }
  const limitKeys = quoteTypes.flatMap((type) => currencies.map((currency) => ({ type, currency })));
  await eachLimited(limitKeys, cliParallelism, ({ type, currency }) =>
    runOperatorCliOrThrow(
      [
        'set-limit', '--tier', 'Platinum', '--type', type, '--currency', currency,
        '--daily', raisedLimit, '--weekly', raisedLimit, '--monthly', raisedLimit, '--yearly', raisedLimit,
        '--per-hour-count', raisedCount, '--per-day-count', raisedCount,
      ],
      cliEnv,
    ),
  );
  await eachLimited(phones, cliParallelism, async (phone) => {
    await runOperatorCliOrThrow(['create-user', '--phone', phone, '--name', `Bench User ${phone.slice(-5)}`, '--tier', 'Platinum', '--kyc', 'approved', '--currencies', 'LRD,USD'], cliEnv);
    for (const currency of currencies) await runOperatorCliOrThrow(['credit-wallet', phone, currency, userCredit[currency]], cliEnv);
  });
  log(`seeded: partner funded, Platinum limits raised, ${phones.length} users credited (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

const quotePath = (type: QuoteType): string => `/partner/v1/${type}/quote`;
const quoteBody = (quote: WorkloadQuote): string => JSON.stringify({ phone: quote.phone, amount: quote.amount, currency: quote.currency });

/** One quote through the gateway, checked: 200 with success and the fee; resolves the fee in minor units. */
async function quoteThroughGateway(stack: QuoteBenchStack, quote: WorkloadQuote): Promise<string> {
  const response = await request(`${stack.gatewayBaseUrl}${quotePath(quote.type)}`, {
    method: 'POST',
    headers: stack.headers,
    body: quoteBody(quote),
    ca: stack.ca,
    timeoutMs: 10_000,
  });
  const json = asRecord(response.json);
  const fee = asRecord(json?.data)?.fee;
  if (response.status !== 200 || json?.success !== true || typeof fee !== 'number') {
    throw new Error(`${quote.type} quote for ${quote.phone} in ${quote.currency} answered HTTP ${response.status} ${response.text.slice(0, 300)}`);
  }
  return String(Math.round(fee * 100));
}

export interface RawWorker {
  pid: number | undefined;
  run(request: RawRunRequest): Promise<Measured>;
  stop(): Promise<void>;
}

/** Starts quote-raw.js with this stack's workload. */
function startRawWorker(stack: QuoteBenchStack, { log, profile = false }: { log: Log; profile?: boolean }): Promise<RawWorker> {
  const workload: RawWorkload = {
    databaseUrl: stack.databaseUrl,
    poolMax: Number(stack.env.DATABASE_POOL_MAX || 10),
    quoteLifetimeSeconds: Number(stack.env.QUOTE_LIFETIME_SECONDS || 600),
    partnerId: stack.partner.partnerId,
    quotes: stack.workload,
  };
  const execArgv = profile ? ['--cpu-prof', '--cpu-prof-dir', stack.profileDirectory, '--cpu-prof-name', `raw-${stack.runId}.cpuprofile`] : [];
  const child = fork(path.join(__dirname, 'quote-raw.js'), [], { env: { ...process.env, BENCH_RAW_WORKLOAD: JSON.stringify(workload) }, execArgv, stdio: ['ignore', 2, 2, 'ipc'] });
  let pending: { resolve: (result: Measured) => void; reject: (error: Error) => void } | undefined;
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      pending?.reject(new Error(`raw worker exited (${signal ?? String(code)}) during a run`));
      resolve();
    });
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`raw worker exited (${signal ?? String(code)}) before it was ready`)));
    child.on('message', (raw) => {
      const message = raw as RawWorkerMessage;
      if ('ready' in message) {
        resolve({
          pid: child.pid,
          run: (runRequest) =>
            new Promise((resolveRun, rejectRun) => {
              pending = { resolve: resolveRun, reject: rejectRun };
              child.send({ cmd: 'run', ...runRequest });
            }),
          stop: async () => {
            if (exited) return;
            if (child.connected) child.send({ cmd: 'stop' });
            const timer = setTimeout(() => {
              log(`raw worker ${String(child.pid)} did not stop; killing it`);
              child.kill('SIGKILL');
            }, 10_000);
            await exit;
            clearTimeout(timer);
          },
        });
        return;
      }
      if (!pending) return;
      const { resolve: resolveRun, reject: rejectRun } = pending;
      pending = undefined;
      if ('error' in message) rejectRun(new Error(`raw worker: ${message.error}`));
      else resolveRun(message.result);
    });
  });
}

export interface TableCounters {
  seq_scan: number;
  idx_scan: number;
  n_tup_ins: number;
}
const counterNames = ['seq_scan', 'idx_scan', 'n_tup_ins'] as const;

async function tableCounters(pool: Pool): Promise<Record<string, TableCounters>> {
  const result = await pool.query<{ name: string; seq_scan: string; idx_scan: string; n_tup_ins: string }>(
    `SELECT schemaname || '.' || relname AS name, seq_scan, coalesce(idx_scan, 0) AS idx_scan, n_tup_ins
       FROM pg_stat_user_tables WHERE schemaname IN ('wallet', 'quotes') ORDER BY 1`,
  );
  return Object.fromEntries(result.rows.map((row) => [row.name, { seq_scan: Number(row.seq_scan), idx_scan: Number(row.idx_scan), n_tup_ins: Number(row.n_tup_ins) }]));
}

function perQuote(before: Record<string, TableCounters>, after: Record<string, TableCounters>, count: number): Record<string, TableCounters> {
  const rows: Record<string, TableCounters> = {};
  for (const [name, counters] of Object.entries(after)) {
    const earlier = before[name] ?? { seq_scan: 0, idx_scan: 0, n_tup_ins: 0 };
    const delta = {
      seq_scan: (counters.seq_scan - earlier.seq_scan) / count,
      idx_scan: (counters.idx_scan - earlier.idx_scan) / count,
      n_tup_ins: (counters.n_tup_ins - earlier.n_tup_ins) / count,
    };
    if (counterNames.some((key) => delta[key] !== 0)) rows[name] = delta;
  }
  return rows;
}

export interface SqlCheck {
  same: boolean;
  quotes: number;
  tables: { table: string; gateway: TableCounters; raw: TableCounters }[];
}

/**
 * Issues every workload quote once through the gateway (checking each answer and learning its
 * fee), then the same quotes through the raw script, and compares what each did to the tables.
 * Also fills in each workload entry's feeMinor, which the raw INSERT needs.
 */
async function checkSameDatabaseWork(stack: QuoteBenchStack, { log }: { log: Log }): Promise<SqlCheck> {
  const pool = new Pool({ connectionString: stack.databaseUrl, max: 1 });
  try {
    const sinceReady = Date.now() - stack.readyAt;
    if (sinceReady < statsFlushWaitMs) await sleep(statsFlushWaitMs - sinceReady);
    const rounds = 2;
    const count = stack.workload.length * rounds;
    const start = await tableCounters(pool);
    for (let round = 0; round < rounds; round += 1) {
      for (const quote of stack.workload) quote.feeMinor = await quoteThroughGateway(stack, quote);
    }
    log(`${count} quotes through the gateway answered 200; waiting ${statsFlushWaitMs / 1000} s for Postgres to publish the table counters`);
    await sleep(statsFlushWaitMs);
    const afterGateway = await tableCounters(pool);
    const worker = await startRawWorker(stack, { log });
    let raw: Measured;
    try {
      raw = await worker.run({ connections: 1, iterations: count });
    } finally {
      await worker.stop(); // its connections close, and a closing backend publishes its counters at once
    }
    if (raw.errors > 0) throw new Error(`the raw quote failed: ${raw.firstFailure ?? 'no message'}`);
    await sleep(1000);
    const afterRaw = await tableCounters(pool);
    const gateway = perQuote(start, afterGateway, count);
    const rawPerQuote = perQuote(afterGateway, afterRaw, count);
    const zero = { seq_scan: 0, idx_scan: 0, n_tup_ins: 0 };
    const tables = [...new Set([...Object.keys(gateway), ...Object.keys(rawPerQuote)])].sort();
    const rows = tables.map((name) => ({ table: name, gateway: gateway[name] ?? zero, raw: rawPerQuote[name] ?? zero }));
    const same = rows.every(({ gateway: left, raw: right }) => counterNames.every((key) => Math.abs(left[key] - right[key]) < 0.02));
    return { same, quotes: count, tables: rows };
  } finally {
    await pool.end();
  }
}

type QuoteTarget = 'raw' | 'gateway';
type Round = Measured & { cpuSeconds: CpuSeconds };

/** CPU milliseconds per successful quote, per process group, over the rounds of one target. */
function cpuPerQuote(results: readonly Round[]): Record<string, number> {
  return cpuMsPer(
    results,
    results.reduce((sum, result) => sum + result.ok, 0),
  );
}

export interface QuoteMeasurements {
  load: Record<QuoteTarget, Summary>;
  latency: Record<QuoteTarget, Summary>;
  cpu: Record<Scenario, Record<QuoteTarget, Record<string, number>>>;
}

/**
 * Warm-up, then the interleaved rounds: for each scenario (load: `connections`; latency:
 * `latencyConnections`) and round, raw then gateway.
 */
async function measureQuotes(stack: QuoteBenchStack, worker: RawWorker, options: BenchOptions, { log }: { log: Log }): Promise<QuoteMeasurements> {
  let next = 0;
  const { workload } = stack;
  const setupRequest = (requestData: { path?: string; body?: string | Buffer }): typeof requestData => {
    const quote = workload[next % workload.length];
    next += 1;
    if (quote === undefined) return requestData;
    requestData.path = `/api/v1${quotePath(quote.type)}`;
    requestData.body = quoteBody(quote);
    return requestData;
  };
  const monitor = new Pool({ connectionString: stack.databaseUrl, max: 1, application_name: 'bench-cpu-monitor' });
  try {
    const meter = benchCpuMeter(stack, monitor, ['gateway', 'quotes', 'wallet', 'auth'], { others: { raw: worker.pid === undefined ? [] : [worker.pid] } });
    // Each run starts the meter (a warm-up's reading is never taken); afterEach reads it.
    const metered =
      (run: (connections: number, durationSeconds: number) => Promise<Measured>) =>
      async (connections: number, durationSeconds: number): Promise<Measured> => {
        await meter.start();
        return run(connections, durationSeconds);
      };
    const targets: Record<QuoteTarget, (connections: number, durationSeconds: number) => Promise<Measured>> = {
      raw: metered((connections, durationSeconds) => worker.run({ connections, durationSeconds })),
      gateway: metered((connections, durationSeconds) =>
        measure({ url: `${stack.gatewayBaseUrl}${quotePath('disbursement')}`, method: 'POST', headers: stack.headers, setupRequest, connections, durationSeconds }),
      ),
    };
    const collected = await interleavedScenarios(stack, targets, options, {
      log,
      afterEach: async (measured, scenario, name, round) => {
        const result: Round = { ...measured, cpuSeconds: await meter.stop() };
        const cpu = cpuPerQuote([result]);
        log(
          `  ${scenario.padEnd(7)} ${name.padEnd(7)} round ${round}: ${result.requestsPerSecond.toFixed(0)} quotes/s, ` +
            `p50 ${format(result.p50Ms)} ms, p99 ${format(result.p99Ms)} ms, CPU ${format(cpu.total)} ms/quote${failuresOf(result)}`,
        );
        return result;
      },
    });
    const both = (scenario: Scenario): Record<QuoteTarget, Summary> => ({ raw: summarise(collected[scenario].raw), gateway: summarise(collected[scenario].gateway) });
    const cpu = (scenario: Scenario): Record<QuoteTarget, Record<string, number>> => ({ raw: cpuPerQuote(collected[scenario].raw), gateway: cpuPerQuote(collected[scenario].gateway) });
    return { load: both('load'), latency: both('latency'), cpu: { load: cpu('load'), latency: cpu('latency') } };
  } finally {
    await monitor.end();
  }
}

/** Starts the stack, checks, measures, and stops everything it started, whatever happens. */
export async function runQuoteBenchmark(options: BenchOptions & { users: number }, { log }: { log: Log }): Promise<{ measured: QuoteMeasurements; sqlCheck: SqlCheck; users: number; quotesInRotation: number }> {
  const stack = await startQuoteStack({ log, configuration: options.configuration, users: options.users, cpuProfile: options.cpuProfile });
  let worker: RawWorker | undefined;
  try {
    const sqlCheck = await checkSameDatabaseWork(stack, { log });
    log(`database work per quote, gateway vs raw (${sqlCheck.quotes} quotes each): ${sqlCheck.same ? 'same' : 'DIFFERENT'}`);
    for (const row of sqlCheck.tables) {
      log(`  ${row.table.padEnd(24)} gateway ${JSON.stringify(row.gateway)}  raw ${JSON.stringify(row.raw)}`);
    }
    worker = await startRawWorker(stack, { log, profile: options.cpuProfile.includes('raw') });
    const measured = await measureQuotes(stack, worker, options, { log });
    return { measured, sqlCheck, users: options.users, quotesInRotation: stack.workload.length };
  } finally {
    if (worker) await worker.stop();
    await stopBenchStack(stack, { log });
    if (options.cpuProfile.length > 0) log(`CPU profiles (written as the processes stopped): ${stack.profileDirectory}`);
  }
}
