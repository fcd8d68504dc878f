// Webhooks benchmark (issue 5): how fast the webhooks service delivers, end to end, while real
// disbursement flows complete through the gateway.
//
// The stack is the flows benchmark's (quote.ts startQuoteStack: fresh ports, throw-away database,
// ENVIRONMENT=sandbox so http and loopback targets are allowed) plus the webhooks service, with a
// throw-away WEBHOOK_SECRET_SEALING_KEY shared by auth, webhooks and the operator CLI. A receiver
// runs inside this process on a free loopback port: it answers 200 at once and records, per
// delivery, the arrival time, the webhook-id header, the payload's referenceId, event and
// timestamp, and whether X-Service-Signature (sha256=<hex HMAC-SHA256 of the raw body>, keyed with
// the whole whsec_ string) verifies against the webhookSecret onboarding printed. The partner is
// onboarded with --webhook-url pointing at it.
//
// Status changes come from real flows: N connections (autocannon, flows.ts measureFlow) each loop
// disbursement quote -> transfer; every completed transfer is a disbursement.completed event
// (disbursements outbox -> RabbitMQ -> webhooks -> one delivery -> the receiver).
//
// Measured, over the rounds after a check and a warm-up:
//   deliveries/s  first arrivals (distinct webhook-id) at the receiver during the rounds' windows;
//   status changes/s  disbursement flows completed in the same windows (the offered load);
//   delay  the first attempt's arrival minus the payload's timestamp (the disbursement's
//          completedAt, the moment of the status change), p50/p99/max, for the events of the rounds;
//   pending  events whose delivery had not arrived when the drain wait (15 s) ended;
//   duplicates  arrivals of a webhook-id already seen; signature mismatches (must be 0).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { asRecord, parseJson, sleep } from '../lib/http';
import type { InternalServiceName } from '../lib/settings';
import { benchCpuMeter, guardAgainstDeath, stopBenchStack, type Log } from './bench-stack';
import type { CpuSeconds } from './cpu';
import { flowPartnerFunding, measureFlow, withFlowTargets, type FlowMeasurement, type FlowsBenchStack } from './flows';
import { LatencySamples } from './measure';
import type { BenchOptions } from './options';
import { startQuoteStack } from './quote';

const services: readonly InternalServiceName[] = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks'];
const processNames = [...services, 'gateway'];
const drainWaitMs = 15_000;
const receiverPath = '/webhooks';
/** The webhooks service's defaults (services/webhooks/README.md, Configuration); the bench env may override. */
const webhookDefaults: Readonly<Record<string, string>> = {
  WEBHOOK_POLL_INTERVAL_MS: '500',
  WEBHOOK_CONCURRENCY_MAX: '50',
  WEBHOOK_PARTNER_CONCURRENCY_MAX: '4',
  WEBHOOK_RETRY_DELAYS_MS: '10000,60000,300000',
};

const now = (): number => performance.timeOrigin + performance.now();

interface Arrival {
  arrivedAt: number;
  webhookId: string;
  referenceId: unknown;
  event: unknown;
  timestampMs: number;
}

interface ReceiverState {
  secret: string | undefined;
  arrivals: Arrival[];
  firstArrival: Map<string, Arrival>;
  duplicates: number;
  mismatches: number;
  unparseable: number;
}

interface Receiver {
  url: string;
  state: ReceiverState;
  stop(): Promise<void>;
}

/** The in-process receiver. `secret` is set once onboarding has printed it. */
function startReceiver(): Promise<Receiver> {
  const state: ReceiverState = { secret: undefined, arrivals: [], firstArrival: new Map(), duplicates: 0, mismatches: 0, unparseable: 0 };
  const server = http.createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== receiverPath) {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrivedAt = now();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      const body = Buffer.concat(chunks);
      const expected = `sha256=${crypto.createHmac('sha256', state.secret ?? '').update(body).digest('hex')}`;
      const offered = String(request.headers['x-service-signature'] ?? '');
      if (!state.secret || expected.length !== offered.length || !crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(offered))) state.mismatches += 1;
      const payload = asRecord(parseJson(body.toString('utf8')));
      if (payload === undefined) {
        state.unparseable += 1;
        return;
      }
      const webhookId = String(request.headers['webhook-id'] ?? '');
      const record = { arrivedAt, webhookId, referenceId: payload.referenceId, event: payload.event, timestampMs: Date.parse(String(payload.timestamp)) };
      state.arrivals.push(record);
      if (state.firstArrival.has(webhookId)) state.duplicates += 1;
      else state.firstArrival.set(webhookId, record);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}${receiverPath}`,
        state,
        stop: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** Waits until `expected` distinct deliveries have arrived or `timeoutMs` passed; resolves the count. */
async function waitForDeliveries(receiver: Receiver, expected: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.state.firstArrival.size < expected && Date.now() < deadline) await sleep(100);
  return receiver.state.firstArrival.size;
}

export interface Delay {
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  count: number;
}

function delayPercentiles(values: readonly number[]): Delay {
  const samples = new LatencySamples();
  for (const value of values) samples.add(value);
  if (samples.count === 0) return { p50Ms: null, p99Ms: null, maxMs: null, count: 0 };
  const { 50: p50Ms, 99: p99Ms, 100: maxMs } = samples.percentiles([50, 99, 100]);
  return { p50Ms, p99Ms, maxMs, count: samples.count };
}

/** Disbursements in a final state: each published exactly one event, so is owed one delivery. */
async function finalDisbursements(monitor: Pool): Promise<number> {
  const result = await monitor.query<{ count: number }>("SELECT count(*)::int AS count FROM disbursements.disbursements WHERE status IN ('completed', 'failed')");
  return result.rows[0]?.count ?? 0;
}

async function deliveryStatusCounts(monitor: Pool): Promise<Record<string, number>> {
  const result = await monitor.query<{ status: string; count: number }>('SELECT status, count(*)::int AS count FROM webhooks.deliveries GROUP BY status ORDER BY status');
  return Object.fromEntries(result.rows.map((row) => [row.status, row.count]));
}

export interface WebhookRound {
  windowStart: number;
  windowEnd: number;
  seconds: number;
  flows: number;
  statusChangesPerSecond: number;
  delivered: number;
  deliveriesPerSecond: number;
  backlogAtEnd: number;
  receivedBefore: number;
  flowP99Ms: number | null;
  cpuSeconds: CpuSeconds;
}

export interface FlowFailures {
  non2xx: number;
  errors: number;
  unexpected: number;
  firstFailure: string | undefined;
}

export interface WebhooksMeasurements {
  users: number;
  rounds: WebhookRound[];
  deliveriesPerSecond: number;
  statusChangesPerSecond: number;
  delay: Delay;
  backlogBeforeDrain: number;
  drainSeconds: number;
  drainDeliveriesPerSecond: number | null;
  expected: number;
  received: number;
  pending: number;
  arrivals: number;
  duplicates: number;
  mismatches: number;
  unparseable: number;
  statusCounts: Record<string, number>;
  failures: FlowFailures;
  coresBusy: Record<string, number>;
  webhookConfig: Record<string, string>;
}

/**
 * Starts the receiver and the stack, checks one delivery arrives, warms up, runs the rounds
 * (disbursement flows, `connections` connections), waits for the drain and stops everything.
 */
export async function runWebhooksBenchmark(options: BenchOptions, { log }: { log: Log }): Promise<WebhooksMeasurements> {
  const users = options.users ?? 64;
  const receiver = await startReceiver();
  log(`webhook receiver listening on ${receiver.url}`);
  let stack: FlowsBenchStack | undefined;
  let monitor: Pool | undefined;
  try {
    const quoteStack = await startQuoteStack({
      log,
      configuration: options.configuration,
      users,
      cpuProfile: options.cpuProfile,
      services,
      databaseName: 'partner_wallet_bench_webhooks',
      environment: 'sandbox',
      funding: flowPartnerFunding,
      webhooks: { url: receiver.url },
    });
    const started = withFlowTargets(quoteStack);
    stack = started;
    if (started.partner.webhookSecret === undefined) throw new Error('onboarding printed no webhookSecret');
    receiver.state.secret = started.partner.webhookSecret;
    const database = new Pool({ connectionString: started.databaseUrl, max: 1, application_name: 'bench-webhooks-monitor' });
    monitor = database;
    const meter = benchCpuMeter(started, database, processNames);

    // Owed deliveries: read from the disbursements table, since transfers still in flight when
    // autocannon stops complete (and publish) after it has stopped counting.
    let expected = 0;
    const failures: FlowFailures = { non2xx: 0, errors: 0, unexpected: 0, firstFailure: undefined };
    const drive = async (connections: number, durationSeconds: number): Promise<FlowMeasurement> => {
      const result = await measureFlow(started, 'disbursement', { connections, durationSeconds });
      expected = await finalDisbursements(database);
      failures.non2xx += result.non2xx;
      failures.errors += result.errors + result.timeouts;
      failures.unexpected += result.unexpected;
      failures.firstFailure ??= result.firstFailure;
      return result;
    };

    // Check: one flow's delivery arrives, signed.
    const check = await drive(1, 1);
    if (check.flows === 0) throw new Error(`the disbursement flow does not complete: ${check.firstFailure ?? 'no flow in 1 s'}`);
    const arrived = await waitForDeliveries(receiver, expected, drainWaitMs);
    if (arrived < expected) throw new Error(`only ${arrived} of ${expected} webhooks arrived within ${drainWaitMs / 1000} s of the check flows`);
    log(`  webhooks arrive (${arrived} from ${check.flows} check flows; signature mismatches ${receiver.state.mismatches})`);

    log(`warm-up: ${options.warmupSeconds} s, ${options.connections} connections`);
    await drive(options.connections, options.warmupSeconds);
    await waitForDeliveries(receiver, expected, drainWaitMs);
    guardAgainstDeath(started);

    const rounds: WebhookRound[] = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      const receivedBefore = receiver.state.firstArrival.size;
      await meter.start();
      const windowStart = now();
      const flow = await drive(options.connections, options.durationSeconds);
      const windowEnd = now();
      const cpuSeconds = await meter.stop();
      const seconds = (windowEnd - windowStart) / 1000;
      let delivered = 0;
      for (const record of receiver.state.firstArrival.values()) if (record.arrivedAt >= windowStart && record.arrivedAt < windowEnd) delivered += 1;
      const result: WebhookRound = {
        windowStart,
        windowEnd,
        seconds,
        flows: flow.flows,
        statusChangesPerSecond: flow.flows / seconds,
        delivered,
        deliveriesPerSecond: delivered / seconds,
        backlogAtEnd: expected - receiver.state.firstArrival.size,
        receivedBefore,
        flowP99Ms: flow.p99Ms,
        cpuSeconds,
      };
      rounds.push(result);
      guardAgainstDeath(started);
      log(
        `  round ${round}: ${result.statusChangesPerSecond.toFixed(0)} status changes/s, ${result.deliveriesPerSecond.toFixed(0)} deliveries/s, ` +
          `backlog at the end ${result.backlogAtEnd}, webhooks CPU ${((cpuSeconds.webhooks ?? 0) / seconds).toFixed(2)} cores`,
      );
    }
    await sleep(1_000); // transfers in flight at the deadline finish (flows.ts waits 2 s for them)
    expected = await finalDisbursements(database);
    const drainStart = now();
    const backlogBeforeDrain = expected - receiver.state.firstArrival.size;
    const received = await waitForDeliveries(receiver, expected, drainWaitMs);
    const drainSeconds = (now() - drainStart) / 1000;
    guardAgainstDeath(started);
    const pending = expected - received;
    const statusCounts = await deliveryStatusCounts(database);

    const firstStart = rounds[0]?.windowStart ?? 0;
    const lastEnd = rounds[rounds.length - 1]?.windowEnd ?? 0;
    const delays: number[] = [];
    for (const record of receiver.state.firstArrival.values()) {
      if (record.timestampMs >= firstStart && record.timestampMs < lastEnd) delays.push(record.arrivedAt - record.timestampMs);
    }
    const totalSeconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
    const cpu: Record<string, number> = {};
    for (const round of rounds) for (const [name, value] of Object.entries(round.cpuSeconds)) cpu[name] = (cpu[name] ?? 0) + value;
    const roundsDelivered = rounds.reduce((sum, round) => sum + round.delivered, 0);
    return {
      users,
      rounds,
      deliveriesPerSecond: roundsDelivered / totalSeconds,
      statusChangesPerSecond: rounds.reduce((sum, round) => sum + round.flows, 0) / totalSeconds,
      delay: delayPercentiles(delays),
      backlogBeforeDrain,
      drainSeconds,
      drainDeliveriesPerSecond: backlogBeforeDrain > 0 ? (backlogBeforeDrain - pending) / drainSeconds : null,
      expected,
      received,
      pending,
      arrivals: receiver.state.arrivals.length,
      duplicates: receiver.state.duplicates,
      mismatches: receiver.state.mismatches,
      unparseable: receiver.state.unparseable,
      statusCounts,
      failures,
      coresBusy: Object.fromEntries(Object.entries(cpu).map(([name, seconds]) => [name, seconds / totalSeconds])),
      webhookConfig: Object.fromEntries(Object.entries(webhookDefaults).map(([key, value]) => [key, started.env[key] || value])),
    };
  } finally {
    if (monitor) await monitor.end().catch(() => undefined);
    if (stack) await stopBenchStack(stack, { log });
    await receiver.stop();
  }
}
