// Lists benchmark (issue 18, decision 0049): `npm run bench -- lists`. One partner with
// 1,000,000 disbursements and 1,000,000 ledger entries on its USD account (lists-seed.ts), then the
// p99 latency through the gateway of
//   list      GET /partner/v1/disbursements?limit=20, the first page and pages further on (cursors
//             collected by walking the list beforehand), in turn;
//   filtered  ?status=failed&currency=USD&createdFrom=…&createdTo=… over 30-day windows of the year;
//   lookup    ?externalId=bench-<n>, n at random (1 in 10 a miss);
//   statement GET /partner/v1/statement?currency=USD&from=…&to=… (first pages from points in the
//             seeded postings), when the route answers 200 (else reported as not available);
// each as a ratio to the p99 of GET /partner/v1/balance measured in the same rounds (target: at
// most 3). Each endpoint is measured `rounds` times for `duration` seconds with `connections`
// connections (1: latency without queueing), the endpoints in turn within a round; a p99 is the
// mean of the rounds' p99s. Then EXPLAIN (ANALYZE, BUFFERS) of the list's own SQL
// (services/disbursements/dist/store/disbursement-list-store.js, the service's listQueryOf) for
// the three list shapes, printed so that the note can show the index scans.
import path from 'node:path';
import { Pool } from 'pg';
import { asRecord, request } from '../lib/http';
import { runOperatorCliOrThrow } from '../lib/operator-cli';
import { repoRoot } from '../lib/repo-root';
import { bearerToken, guardAgainstDeath, stopBenchStack, type Log } from './bench-stack';
import { configurationFields, describeConfiguration, type ConfigurationFields } from './configuration';
import { failuresOf, summarise, type Summary } from './gateway';
import type { ListsBenchOptions } from './lists-options';
import { seedDisbursements, seedLedger } from './lists-seed';
import { format, measure, type Measured } from './measure';
import { startQuoteStack, type QuoteBenchStack } from './quote';
import { machine, out, round, row } from './report';

const targetRatioMax = 3;
const pageLimit = 20;
/** Pages walked beforehand for the cursors of the list target. */
const walkedPages = 50;
const filteredWindowDays = 30;

type Target = 'balance' | 'list' | 'filtered' | 'lookup' | 'statement';
const targetLabels: Readonly<Record<Target, string>> = {
  balance: 'GET /balance',
  list: 'list page',
  filtered: 'filtered list (status+currency+dates)',
  lookup: 'externalId lookup',
  statement: 'statement page (USD)',
};

interface ListsStack extends QuoteBenchStack {
  pool: Pool;
}

interface Seeded {
  disbursementsSeconds: number;
  ledgerSeconds: number;
  partnerEntries: number;
  ledgerCheck: Record<string, unknown>;
  /** When the ledger seeding started and ended (database clock): the statement's periods. */
  postingsFrom: Date;
  postingsTo: Date;
}

/** A cycling list of request paths (below the gateway's origin). */
function cycle(paths: readonly string[]): () => string {
  let next = 0;
  return () => {
    const pathText = paths[next % paths.length] ?? paths[0] ?? '/';
    next += 1;
    return pathText;
  };
}

const publicPath = (pathAndQuery: string): string => `/api/v1${pathAndQuery}`;

async function getJson(stack: ListsStack, pathAndQuery: string): Promise<{ status: number; data: Record<string, unknown> | undefined; text: string }> {
  const answer = await request(`${stack.gatewayBaseUrl}${pathAndQuery}`, { headers: stack.headers, ca: stack.ca, timeoutMs: 30_000 });
  return { status: answer.status, data: asRecord(asRecord(answer.json)?.data), text: answer.text };
}

async function seed(stack: ListsStack, options: ListsBenchOptions, log: Log): Promise<Seeded> {
  log(`seeding ${options.disbursements.toLocaleString('en')} disbursements`);
  const disbursementsSeconds = await seedDisbursements(stack.pool, stack.partner.partnerId, options.disbursements, log);
  const clock = async (): Promise<Date> => (await stack.pool.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]?.now ?? new Date();
  const postingsFrom = await clock();
  log(`seeding the ledger to ${options.ledgerEntries.toLocaleString('en')} entries on the partner's USD account`);
  const ledger = await seedLedger(stack.pool, stack.partner.partnerId, options.ledgerEntries, log);
  const postingsTo = await clock();
  await stack.pool.query('ANALYZE');
  log('checking the ledger (wallet operator CLI check-ledger)');
  const ledgerCheck = await runOperatorCliOrThrow(['check-ledger'], stack.local.operatorEnvironment());
  return { disbursementsSeconds, ledgerSeconds: ledger.seconds, partnerEntries: ledger.partnerEntries, ledgerCheck, postingsFrom, postingsTo };
}

/** The request paths of each target, learnt from the seeded data through the gateway. */
async function targetPaths(stack: ListsStack, options: ListsBenchOptions, seeded: Seeded, log: Log): Promise<Partial<Record<Target, () => string>>> {
  const listPaths = [`/partner/v1/disbursements?limit=${pageLimit}`];
  let cursor: unknown = null;
  for (let pageIndex = 0; pageIndex < walkedPages; pageIndex += 1) {
    const page = await getJson(stack, `/partner/v1/disbursements?limit=${pageLimit}${typeof cursor === 'string' ? `&cursor=${cursor}` : ''}`);
    if (page.status !== 200) throw new Error(`walking the list: HTTP ${page.status} ${page.text.slice(0, 300)}`);
    cursor = page.data?.nextCursor;
    if (typeof cursor !== 'string') break;
    listPaths.push(`/partner/v1/disbursements?limit=${pageLimit}&cursor=${cursor}`);
  }
  const now = Date.now();
  const filteredPaths = Array.from({ length: 12 }, (_, month) => {
    const to = new Date(now - month * filteredWindowDays * 86_400_000);
    const from = new Date(to.getTime() - filteredWindowDays * 86_400_000);
    return `/partner/v1/disbursements?status=failed&currency=USD&createdFrom=${from.toISOString()}&createdTo=${to.toISOString()}&limit=${pageLimit}`;
  });
  let lookupCount = 0;
  const lookup = (): string => {
    lookupCount += 1;
    const n = 1 + Math.floor(Math.random() * options.disbursements);
    return publicPath(`/partner/v1/disbursements?externalId=${lookupCount % 10 === 0 ? `missing-${n}` : `bench-${n}`}`);
  };
  const spanMs = seeded.postingsTo.getTime() - seeded.postingsFrom.getTime();
  const statementPaths = Array.from({ length: 10 }, (_, point) => {
    const from = new Date(seeded.postingsFrom.getTime() - 1_000 + Math.floor((spanMs * point) / 10));
    const to = new Date(from.getTime() + filteredWindowDays * 86_400_000);
    return `/partner/v1/statement?currency=USD&from=${from.toISOString()}&to=${to.toISOString()}&limit=${pageLimit}`;
  });
  const statementProbe = await getJson(stack, statementPaths[0] ?? '');
  const statementAvailable = statementProbe.status === 200;
  log(
    statementAvailable
      ? `statement answers 200 (${Array.isArray(statementProbe.data?.items) ? statementProbe.data.items.length : 0} items on the first page)`
      : `statement not available: HTTP ${statementProbe.status} ${statementProbe.text.slice(0, 200)}`,
  );
  return {
    balance: () => publicPath('/partner/v1/balance'),
    list: (() => {
      const next = cycle(listPaths);
      return () => publicPath(next());
    })(),
    filtered: (() => {
      const next = cycle(filteredPaths);
      return () => publicPath(next());
    })(),
    lookup,
    ...(statementAvailable
      ? {
          statement: (() => {
            const next = cycle(statementPaths);
            return () => publicPath(next());
          })(),
        }
      : {}),
  };
}

function measureTarget(stack: ListsStack, nextPath: () => string, connections: number, durationSeconds: number): Promise<Measured> {
  return measure({
    url: `${stack.gatewayBaseUrl}/partner/v1/balance`,
    headers: stack.headers,
    setupRequest: (requestData) => {
      requestData.path = nextPath();
      return requestData;
    },
    connections,
    durationSeconds,
  });
}

interface ListQueryModule {
  listQueryOf: (filter: Record<string, unknown>) => { sql: string; values: unknown[] };
}

/** EXPLAIN (ANALYZE, BUFFERS) of the service's own list SQL for a page, a filtered page and a lookup. */
async function explainPlans(stack: ListsStack, options: ListsBenchOptions): Promise<Record<string, string>> {
  const modulePath = path.join(repoRoot, 'services', 'disbursements', 'dist', 'store', 'disbursement-list-store.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { listQueryOf } = require(modulePath) as ListQueryModule;
  const partnerId = stack.partner.partnerId;
  const to = new Date(Date.now() - 90 * 86_400_000);
  const from = new Date(to.getTime() - filteredWindowDays * 86_400_000);
  const middle = await stack.pool.query<{ created_at_key: string; disbursement_id: string }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_key, disbursement_id
       FROM disbursements.disbursements WHERE partner_id = $1 AND external_id = $2`,
    [partnerId, `bench-${Math.floor(options.disbursements / 2)}`],
  );
  const after = middle.rows[0] ? { createdAt: middle.rows[0].created_at_key, disbursementId: middle.rows[0].disbursement_id } : undefined;
  const shapes: Record<string, Record<string, unknown>> = {
    'list, first page': { partnerId, rowCount: pageLimit + 1 },
    'list, a page half-way (cursor)': { partnerId, after, rowCount: pageLimit + 1 },
    'filtered (status=failed, currency=USD, 30 days)': { partnerId, status: 'failed', currency: 'USD', createdFrom: from.toISOString(), createdTo: to.toISOString(), rowCount: pageLimit + 1 },
    'externalId lookup': { partnerId, externalId: `bench-${Math.floor(options.disbursements / 3)}`, rowCount: pageLimit + 1 },
  };
  const plans: Record<string, string> = {};
  const client = await stack.pool.connect();
  try {
    await client.query('SET search_path TO disbursements');
    for (const [name, filter] of Object.entries(shapes)) {
      const { sql, values } = listQueryOf(filter);
      const result = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, values);
      plans[name] = result.rows.map((planRow) => planRow['QUERY PLAN']).join('\n');
    }
  } finally {
    client.release();
  }
  return plans;
}

export interface ListsSummary {
  bench: 'lists';
  valid: boolean;
  [field: string]: unknown;
}

export async function listsBenchmark(options: ListsBenchOptions, log: Log): Promise<ListsSummary> {
  log('starting the bench stack (auth, wallet, quotes, disbursements, gateway)');
  const quoteStack = await startQuoteStack({
    log,
    configuration: options.configuration,
    users: 8,
    services: ['auth', 'wallet', 'quotes', 'disbursements'],
    databaseName: 'partner_wallet_bench_lists',
    funding: { USD: '20000000.00', LRD: '1000.00' },
  });
  const stack: ListsStack = { ...quoteStack, pool: new Pool({ connectionString: quoteStack.databaseUrl, max: 2 }) };
  try {
    const seeded = await seed(stack, options, log);
    log(`seeded in ${(seeded.disbursementsSeconds + seeded.ledgerSeconds).toFixed(0)} s; ledger check: ${JSON.stringify(seeded.ledgerCheck).slice(0, 200)}`);
    stack.headers = { ...stack.headers, authorization: await bearerToken(stack, stack.gatewayBaseUrl, stack.partner) };
    const paths = await targetPaths(stack, options, seeded, log);
    const targets = (Object.keys(targetLabels) as Target[]).filter((target) => paths[target] !== undefined);
    log(`warm-up: ${options.warmupSeconds} s each`);
    for (const target of targets) {
      const nextPath = paths[target];
      if (nextPath && options.warmupSeconds > 0) await measureTarget(stack, nextPath, options.connections, options.warmupSeconds);
      guardAgainstDeath(stack);
    }
    const results: Partial<Record<Target, Measured[]>> = {};
    for (let roundIndex = 1; roundIndex <= options.rounds; roundIndex += 1) {
      for (const target of targets) {
        const nextPath = paths[target];
        if (!nextPath) continue;
        const measured = await measureTarget(stack, nextPath, options.connections, options.durationSeconds);
        guardAgainstDeath(stack);
        (results[target] ??= []).push(measured);
        log(`round ${roundIndex} ${target}: ${measured.requestsPerSecond.toFixed(0)} req/s, p50 ${format(measured.p50Ms)} ms, p99 ${format(measured.p99Ms)} ms${failuresOf(measured)}`);
      }
    }
    const plans = await explainPlans(stack, options);
    const summary = listsSummary(options, seeded, targets, results, plans);
    printListsReport(summary, plans);
    return summary;
  } finally {
    await stack.pool.end();
    await stopBenchStack(stack, { log });
    log('bench stack stopped');
  }
}

function listsSummary(options: ListsBenchOptions, seeded: Seeded, targets: readonly Target[], results: Partial<Record<Target, Measured[]>>, plans: Record<string, string>): ListsSummary {
  const summaries = Object.fromEntries(targets.map((target) => [target, summarise(results[target] ?? [])])) as Partial<Record<Target, Summary>>;
  const balanceP99 = summaries.balance?.p99Ms ?? null;
  const ratioOf = (target: Target): number | null => {
    const p99 = summaries[target]?.p99Ms;
    return p99 === undefined || p99 === null || balanceP99 === null || balanceP99 === 0 ? null : p99 / balanceP99;
  };
  const measuredTargets = targets.filter((target) => target !== 'balance');
  const failures = targets.reduce((sum, target) => sum + (summaries[target]?.non2xx ?? 0) + (summaries[target]?.errors ?? 0), 0);
  const ratios = Object.fromEntries(measuredTargets.map((target) => [target, round(ratioOf(target), 2)]));
  return {
    bench: 'lists',
    ...machine(),
    ...configurationFields(options.configuration, { webhooks: 'not started' }),
    disbursements: options.disbursements,
    partner_ledger_entries: seeded.partnerEntries,
    ledger_check_ok: seeded.ledgerCheck.ok === true,
    seed_seconds: { disbursements: round(seeded.disbursementsSeconds, 1), ledger: round(seeded.ledgerSeconds, 1) },
    connections: options.connections,
    duration_s: options.durationSeconds,
    rounds: options.rounds,
    p50_ms: Object.fromEntries(targets.map((target) => [target, round(summaries[target]?.p50Ms)])),
    p99_ms: Object.fromEntries(targets.map((target) => [target, round(summaries[target]?.p99Ms)])),
    req_per_s: Object.fromEntries(targets.map((target) => [target, round(summaries[target]?.requestsPerSecond, 0)])),
    p99_ratio_to_balance: ratios,
    statement_available: targets.includes('statement'),
    target_ratio_max: targetRatioMax,
    meets_target: measuredTargets.every((target) => {
      const ratio = ratioOf(target);
      return ratio !== null && ratio <= targetRatioMax;
    }),
    failures,
    plans_use_index: Object.fromEntries(Object.entries(plans).map(([name, plan]) => [name, /Index (Only )?Scan/.test(plan) && !/Seq Scan/.test(plan)])),
    valid: failures === 0 && seeded.ledgerCheck.ok === true,
  };
}

function printListsReport(summary: ListsSummary, plans: Record<string, string>): void {
  const p50 = summary.p50_ms as Record<string, number | null>;
  const p99 = summary.p99_ms as Record<string, number | null>;
  const rps = summary.req_per_s as Record<string, number | null>;
  const ratios = summary.p99_ratio_to_balance as Record<string, number | null>;
  out('');
  out(
    `Lists benchmark: ${String(summary.disbursements)} disbursements and ${String(summary.partner_ledger_entries)} ledger entries of one partner; ` +
      `${String(summary.rounds)} rounds of ${String(summary.duration_s)} s per endpoint, ${String(summary.connections)} connection(s) (node ${String(summary.node)}, ${String(summary.cpus)} CPUs)`,
  );
  out(describeConfiguration(summary.configuration as ConfigurationFields));
  const line = (cells: readonly (string | number | null)[]): void => row(cells.map((cell) => cell ?? 'n/a'), 42, 12);
  line(['', 'req/s', 'p50 ms', 'p99 ms', 'p99 / balance']);
  for (const target of Object.keys(targetLabels) as Target[]) {
    if (!(target in p99)) {
      line([targetLabels[target], 'not available', '', '', '']);
      continue;
    }
    line([targetLabels[target], rps[target] ?? null, format(p50[target]), format(p99[target]), target === 'balance' ? '1' : format(ratios[target])]);
  }
  out('');
  out(`Target: each p99 at most ${targetRatioMax}x the balance endpoint's: ${summary.meets_target ? 'MET' : 'NOT MET'}${summary.valid ? '' : '; INVALID run (failures or ledger check)'}`);
  out('');
  for (const [name, plan] of Object.entries(plans)) {
    out(`EXPLAIN (ANALYZE, BUFFERS): ${name}`);
    out(plan);
    out('');
  }
}
