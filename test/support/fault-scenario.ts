/**
 * The frame shared by the fault tests (issue 14): a whole stack on the given servers (one of them a
 * private server the test will stop), a partner with a webhook receiver, Platinum users whose limits
 * allow steady traffic, and then steady traffic and readiness sampling around a fault. Afterwards it
 * gathers the evidence of "exactly one event per transfer" (see collectEventEvidence) and prints the
 * figures for the note.
 */
import { Pool } from 'pg';
import { accessTokenFor, pollUntil } from './partners';
import { startReadinessSampler, summariseReadiness, type ReadinessSample } from './readiness-sampler';
import { internalServiceNames, startStack, type ServerUrls, type Stack } from './stack';
import { callsOverlapping, countCalls, failuresByAnswer, startSteadyTraffic, type TrafficCall } from './steady-traffic';
import { createWalletUser, fundPartner, setLimit, type WalletUser } from './wallet-users';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

const trafficLoops = 4;
const readinessIntervalMs = 250;
const raisedAmountLimit = '100000000.00';
const raisedCountLimit = 1_000_000;

export interface FaultScenario {
  stack: Stack;
  receiver: WebhookReceiver;
  partnerId: string;
  token: string;
  users: WalletUser[];
  /** A pool on the stack's database, for the evidence queries. */
  database: Pool;
  /** Loops still running (traffic, sampling) when a test ends early: dispose() stops them first. */
  running: Set<{ stop(): Promise<unknown> }>;
  /** Stops any loop still running, the stack and the receiver, and closes the pool; the caller then disposes its private server. */
  dispose(): Promise<void>;
}

export async function prepareFaultScenario(servers: Partial<ServerUrls>): Promise<FaultScenario> {
  const receiver = await startWebhookReceiver();
  let stack: Stack | undefined;
  let database: Pool | undefined;
  const running = new Set<{ stop(): Promise<unknown> }>();
  const dispose = async (): Promise<void> => {
    await Promise.all([...running].map((loop) => loop.stop()));
    await database?.end().catch(() => undefined);
    await stack?.stop();
    await receiver.close();
  };
  try {
    stack = await startStack({
      logLevel: 'warn',
      servers,
      serviceEnv: {
        disbursements: { OUTBOX_POLL_INTERVAL_MS: '100' },
        webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_ATTEMPT_TIMEOUT_MS: '2000', WEBHOOK_RETRY_DELAYS_MS: '500,1000,2000' },
      },
    });
    database = new Pool({ connectionString: stack.databaseUrl, max: 2 });
    // Idle connections are cut by a server restart (and by the drop WITH FORCE at the end): not an error of the test.
    database.on('error', () => undefined);
    const started = stack;
    // The limits, the partner (then its funding) and the users do not depend on one another: each
    // operator CLI call is a process of about a second, so they run side by side.
    const [, onboarded, users] = await Promise.all([
      setLimit(started, { tier: 'Platinum', type: 'disbursement', currency: 'USD' }, {
        daily: raisedAmountLimit,
        weekly: raisedAmountLimit,
        monthly: raisedAmountLimit,
        yearly: raisedAmountLimit,
        perHourCount: raisedCountLimit,
        perDayCount: raisedCountLimit,
      }),
      onboardAndFund(started, receiver.url),
      Promise.all(Array.from({ length: trafficLoops }, () => createWalletUser(started, { tier: 'Platinum', currencies: ['USD'] }))),
    ]);
    const { partnerId, clientId, clientSecret } = onboarded;
    const token = await accessTokenFor(stack.client, { clientId, clientSecret });
    // The webhooks service learns the partner (and its URL) from auth's event; wait for it before any fault.
    const pool = database;
    const known = await pollUntil(() => pool.query('SELECT 1 FROM webhooks.partners WHERE partner_id = $1 AND webhook_url IS NOT NULL', [partnerId]), (result) => result.rowCount === 1, 15_000);
    if (known.rowCount !== 1) throw new Error('the webhooks service did not learn the partner within 15 s');
    return { stack, receiver, partnerId, token, users, database, running, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** The fault test's partner (webhooks to the receiver), funded for the whole run. */
async function onboardAndFund(stack: Stack, webhookUrl: string): Promise<{ partnerId: string; clientId: string; clientSecret: string }> {
  const onboarded = await stack.operator(['onboard', '--name', 'Fault test partner', '--permissions', 'disbursement', '--rate-limit', '100000', '--webhook-url', webhookUrl]);
  const { partnerId, clientId, clientSecret } = onboarded as Record<string, string>;
  if (partnerId === undefined || clientId === undefined || clientSecret === undefined) throw new Error('onboard printed no credentials');
  await fundPartner(stack, partnerId, 'USD', '1000000.00');
  return { partnerId, clientId, clientSecret };
}

/** When the fault began and ended (the server is away between the two, or restarting). */
export interface FaultWindow {
  startedAtMs: number;
  endedAtMs: number;
}

export interface FaultRun {
  stack: Stack;
  window: FaultWindow;
  calls: TrafficCall[];
  readiness: ReadinessSample[];
}

/**
 * Steady traffic and readiness sampling from warmUpMs before the fault to recoveryMs after it.
 * Traffic and sampling are stopped whatever the fault does; a fault that throws is rethrown.
 */
export async function runUnderTraffic(scenario: FaultScenario, fault: () => Promise<FaultWindow>, timing: { warmUpMs: number; recoveryMs: number }): Promise<FaultRun> {
  const { stack } = scenario;
  const sampler = startReadinessSampler(
    {
      gateway: `http://127.0.0.1:${String(stack.gateway.adminPort)}/readyz`,
      ...Object.fromEntries(internalServiceNames.map((name) => [name, `${stack.internalUrls[name]}/readyz`])),
    },
    readinessIntervalMs,
  );
  const traffic = startSteadyTraffic({ client: stack.client, bearer: scenario.token, users: scenario.users, amount: 1, pauseAfterFailureMs: 100, pauseBetweenFlowsMs: 50 });
  scenario.running.add(sampler).add(traffic);
  try {
    await sleep(timing.warmUpMs);
    const window = await fault();
    await sleep(timing.recoveryMs);
    return { stack, window, calls: await traffic.stop(), readiness: await sampler.stop() };
  } finally {
    await traffic.stop();
    await sampler.stop();
    scenario.running.delete(traffic);
    scenario.running.delete(sampler);
  }
}

export interface EventEvidence {
  /** referenceId → rows in webhooks.deliveries with event_type disbursement.completed (one row per distinct eventId). */
  recordedEvents: Map<string, number>;
  /** referenceId → distinct webhook-id values of disbursement.completed webhooks the partner's receiver got. */
  receivedEvents: Map<string, number>;
  /** referenceId → externalId of every disbursement stored as completed. */
  completedDisbursements: Map<string, string>;
  /** Outbox rows of the disbursements service still unpublished when the evidence was read. */
  unpublishedOutboxRows: number;
}

/**
 * Waits (at most timeoutMs) until the events have settled: the disbursements outbox is empty and
 * every completed disbursement has a delivered webhook; then reads the evidence.
 *
 * "Exactly one event" is read where an event is recorded once it has crossed the broker: the webhooks
 * service records one row in webhooks.deliveries per distinct eventId it consumes (event_id UNIQUE,
 * broker redeliveries of the same event absorbed by its inbox), so a lost event is a missing row and
 * a duplicated event (the transfer's event produced twice) a second row. The partner's side is
 * read too: the distinct webhook-id values its receiver got for the referenceId (an HTTP retry of
 * the same event keeps its webhook-id and is not a second event).
 */
export async function collectEventEvidence(scenario: FaultScenario, timeoutMs: number): Promise<EventEvidence> {
  const read = async (): Promise<EventEvidence & { undelivered: number }> => {
    const [completed, recorded, unpublished, undelivered] = await Promise.all([
      scenario.database.query<{ reference_id: string; external_id: string }>("SELECT reference_id, external_id FROM disbursements.disbursements WHERE status = 'completed'"),
      scenario.database.query<{ reference_id: string; events: string }>(
        "SELECT reference_id, count(*) AS events FROM webhooks.deliveries WHERE event_type = 'disbursement.completed' GROUP BY reference_id",
      ),
      scenario.database.query<{ count: string }>('SELECT count(*) FROM disbursements.outbox WHERE published_at IS NULL'),
      scenario.database.query<{ count: string }>("SELECT count(*) FROM webhooks.deliveries WHERE status <> 'delivered'"),
    ]);
    return {
      completedDisbursements: new Map(completed.rows.map((row) => [row.reference_id, row.external_id])),
      recordedEvents: new Map(recorded.rows.map((row) => [row.reference_id, Number(row.events)])),
      receivedEvents: receivedCompletedEvents(scenario.receiver),
      unpublishedOutboxRows: Number(unpublished.rows[0]?.count ?? -1),
      undelivered: Number(undelivered.rows[0]?.count ?? -1),
    };
  };
  const settled = (evidence: EventEvidence & { undelivered: number }): boolean =>
    evidence.unpublishedOutboxRows === 0 &&
    evidence.undelivered === 0 &&
    [...evidence.completedDisbursements.keys()].every((referenceId) => evidence.recordedEvents.has(referenceId) && evidence.receivedEvents.has(referenceId));
  const evidence = await pollUntil(read, settled, timeoutMs, 250);
  return { recordedEvents: evidence.recordedEvents, receivedEvents: evidence.receivedEvents, completedDisbursements: evidence.completedDisbursements, unpublishedOutboxRows: evidence.unpublishedOutboxRows };
}

function receivedCompletedEvents(receiver: WebhookReceiver): Map<string, number> {
  const webhookIds = new Map<string, Set<string>>();
  for (const request of receiver.received) {
    const body = JSON.parse(request.body) as { event?: string; referenceId?: string };
    if (body.event !== 'disbursement.completed' || body.referenceId === undefined) continue;
    const id = String(request.headers['webhook-id'] ?? '');
    webhookIds.set(body.referenceId, (webhookIds.get(body.referenceId) ?? new Set()).add(id));
  }
  return new Map([...webhookIds].map(([referenceId, ids]) => [referenceId, ids.size]));
}

/**
 * Every way the evidence breaks "exactly one disbursement.completed event per transfer", one line
 * each (empty when it holds): a transfer answered 200 whose disbursement is not stored as completed,
 * or whose event is recorded or received other than once; a completed disbursement (whatever its
 * call answered) whose event is lost or doubled.
 */
export function eventProblems(evidence: EventEvidence, calls: TrafficCall[]): string[] {
  const problems: string[] = [];
  const answeredOk = calls.filter((entry) => entry.kind === 'transfer' && entry.status === 200);
  for (const entry of answeredOk) {
    const referenceId = entry.referenceId ?? '(none)';
    if (evidence.completedDisbursements.get(referenceId) !== entry.externalId) problems.push(`${referenceId} (${entry.externalId ?? ''}) answered 200 but is not stored as completed with its externalId`);
  }
  for (const referenceId of new Set([...answeredOk.map((entry) => entry.referenceId ?? '(none)'), ...evidence.completedDisbursements.keys()])) {
    const recorded = evidence.recordedEvents.get(referenceId) ?? 0;
    const received = evidence.receivedEvents.get(referenceId) ?? 0;
    if (recorded !== 1 || received !== 1) problems.push(`${referenceId}: ${String(recorded)} event(s) recorded, ${String(received)} received`);
  }
  return problems;
}

/**
 * Completed disbursements whose transfer call did not answer 200 and whose refusal did not name the
 * record either (issue 14: a refusal that leaves a record says which): the partner was told the
 * transfer failed, or nothing, while the money moved. One line each; empty when there is none.
 */
export function completedButNotNamed(evidence: EventEvidence, calls: TrafficCall[]): string[] {
  const transfers = new Map(calls.filter((entry) => entry.kind === 'transfer').map((entry) => [entry.externalId, entry]));
  const unnamed: string[] = [];
  for (const [referenceId, externalId] of evidence.completedDisbursements) {
    const entry = transfers.get(externalId);
    if (entry?.status === 200 || entry?.referenceId === referenceId) continue;
    const answer = entry === undefined ? 'no call' : `${String(entry.status)} ${entry.code ?? entry.error ?? '-'}`;
    unnamed.push(`${referenceId} completed, but its transfer answered ${answer} without naming it`);
  }
  return unnamed;
}

/** The figures for the note, printed as one JSON line and returned for the test's own checks. */
export function reportFigures(name: string, run: FaultRun, evidence: EventEvidence, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const transfers = run.calls.filter((entry) => entry.kind === 'transfer');
  const quotes = run.calls.filter((entry) => entry.kind === 'quote');
  const { startedAtMs, endedAtMs } = run.window;
  const readinessOf = (from?: number, to?: number) =>
    Object.fromEntries(['gateway', ...internalServiceNames].map((target) => [target, summariseReadiness(run.readiness, target, from, to)]));
  const figures = {
    scenario: name,
    faultWindowMs: endedAtMs - startedAtMs,
    transfers: countCalls(transfers),
    quotes: countCalls(quotes),
    duringFault: {
      transfers: countCalls(callsOverlapping(transfers, startedAtMs, endedAtMs)),
      quotes: countCalls(callsOverlapping(quotes, startedAtMs, endedAtMs)),
    },
    failures: failuresByAnswer(run.calls),
    crashedProcesses: Object.keys(crashedProcesses(run.stack)),
    unhandledErrors: unhandledErrors(run.stack),
    events: {
      completedDisbursements: evidence.completedDisbursements.size,
      recorded: [...evidence.recordedEvents.values()].reduce((sum, count) => sum + count, 0),
      received: [...evidence.receivedEvents.values()].reduce((sum, count) => sum + count, 0),
      completedButNotAnswered200: [...evidence.completedDisbursements.keys()].filter(
        (referenceId) => !transfers.some((entry) => entry.status === 200 && entry.referenceId === referenceId),
      ).length,
      completedButNotNamed: completedButNotNamed(evidence, run.calls),
      unpublishedOutboxRows: evidence.unpublishedOutboxRows,
    },
    ...extra,
    readinessDuringFault: readinessOf(startedAtMs, endedAtMs),
    readinessWholeRun: readinessOf(),
  };
  console.log(`fault test figures ${JSON.stringify(figures)}`);
  return figures;
}

/**
 * The processes of the stack that died of an uncaught error, each with the start of what it printed
 * (Node prints the error, then "Node.js v<version>" as its last line); empty when none did.
 */
export function crashedProcesses(stack: Stack): Record<string, string> {
  const crashed: Record<string, string> = {};
  const plainLines = stack.logs().split('\n').filter((line) => !line.includes('"level":'));
  for (const line of plainLines) {
    const match = /^\[([a-z0-9-]+)\] Node\.js v\d/.exec(line);
    const name = match?.[1];
    if (name === undefined || name in crashed) continue;
    crashed[name] = plainLines
      .filter((candidate) => candidate.startsWith(`[${name}] `))
      .slice(0, 6)
      .join('\n');
  }
  return crashed;
}

/**
 * What the stack's services answered 500 PKC_7002 for ("unhandled error" in their logs): per process,
 * how many and the first error's message, for the printed figures.
 */
export function unhandledErrors(stack: Stack): Record<string, { count: number; first: string }> {
  const found: Record<string, { count: number; first: string }> = {};
  for (const line of stack.logs().split('\n')) {
    const match = /^\[([a-z0-9-]+)\] (\{.*\})$/.exec(line);
    if (!match?.[1] || !match[2]?.includes('"unhandled error"')) continue;
    const entry = JSON.parse(match[2]) as { err?: { type?: string; message?: string; code?: string } };
    const first = `${entry.err?.type ?? ''} ${entry.err?.code ?? ''} ${entry.err?.message ?? ''}`.trim();
    const known = found[match[1]];
    found[match[1]] = known === undefined ? { count: 1, first } : { count: known.count + 1, first: known.first };
  }
  return found;
}

/** eventProblems for a verdict: how many, and the first few (a crashed service can make hundreds). */
export function eventProblemSummary(evidence: EventEvidence, calls: TrafficCall[]): { count: number; first: string[] } {
  const problems = eventProblems(evidence, calls);
  return { count: problems.length, first: problems.slice(0, 5) };
}

/** The wallet's check-ledger report, or what it said when it failed (it exits 1 on a problem). */
export async function ledgerCheck(stack: Stack): Promise<Record<string, unknown>> {
  return stack.walletOperator(['check-ledger']).catch((error: unknown) => ({ failed: error instanceof Error ? error.message : String(error) }));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
