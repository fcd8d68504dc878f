// Flows benchmark: complete partner flows through the gateway, as a partner's integration would
// drive them in the sandbox, each connection looping one flow with its requests in sequence:
//
//   disbursement  POST disbursement/quote -> POST disbursement/transfer (quoteId, fresh externalId)
//   collection    POST collection/quote -> POST collection/request (quoteId, fresh externalId)
//                 -> POST sandbox/collection/:referenceId/approve (the money moves)
//
// The load generator is autocannon with per-connection request sequences, the same tool and the
// same shape as the shared reference's load.js (quote, then transfer with that quote), so the
// ratio flows/s / reference flows/s compares like with like. A flow counts when its last step
// answers 2xx with status "completed". Each step's latency is kept exactly (fractional ms) per
// step and overall: autocannon calls the step's onResponse and then, synchronously, emits
// 'response' with that request's latency, so the step is known when the latency arrives.
//
// The stack is the quote benchmark's (quote.js), started fresh on free ports with a throw-away
// database, with collections and disbursements too (webhooks not needed), ENVIRONMENT=sandbox
// (the approve step is the sandbox simulation endpoint), one partner whose rate limit never trips
// and with lots of funds in both currencies, N Platinum users (64 by default) with both wallets
// credited, and the Platinum limits raised (amounts and per-hour/per-day counts: completed flows
// use them up). Flows are spread round-robin over every user x currency.
'use strict';
const autocannon = require('autocannon');
const { startQuoteStack, quoteAmounts } = require('./quote');
const { stopBenchStack, describeDeath, format } = require('./gateway');
const { LatencySamples } = require('./measure');
const { cpuMeter, databaseBackendPids, machineBusySeconds } = require('./cpu');
const { sleep } = require('../lib/http');

/** Enough for hours of flows at thousands per second (a disbursement debits the partner amount + fee). */
const flowPartnerFunding = { USD: '100000000.00', LRD: '18500000000.00' };
const flowServices = ['auth', 'wallet', 'quotes', 'collections', 'disbursements'];
const processNames = [...flowServices, 'gateway'];
/**
 * autocannon stops at the deadline with requests still in the services; they finish within about a
 * second at this load. Waiting this long after a measurement keeps their work out of the next one
 * (and out of the shutdown's logs).
 */
const drainMs = 2_000;

const quoteBody = (target) => JSON.stringify({ phone: target.phone, amount: quoteAmounts[target.currency].api, currency: target.currency });

/**
 * The two flows. Each step: its path (from the flow context), its body, the status it must answer,
 * and what it takes from the answer into the context for the next step (false: the flow failed).
 */
function flowDefinitions(externalId) {
  const completed = (data) => data.status === 'completed';
  return {
    disbursement: [
      { name: 'quote', status: 200, path: () => '/partner/v1/disbursement/quote', body: (ctx) => quoteBody(ctx.target), take: (data, ctx) => Boolean((ctx.quoteId = data.quoteId)) },
      {
        name: 'transfer',
        status: 200,
        path: () => '/partner/v1/disbursement/transfer',
        body: (ctx) => JSON.stringify({ quoteId: ctx.quoteId, externalId: externalId(), note: 'bench' }),
        take: completed,
      },
    ],
    collection: [
      { name: 'quote', status: 200, path: () => '/partner/v1/collection/quote', body: (ctx) => quoteBody(ctx.target), take: (data, ctx) => Boolean((ctx.quoteId = data.quoteId)) },
      {
        name: 'request',
        status: 202,
        path: () => '/partner/v1/collection/request',
        body: (ctx) => JSON.stringify({ quoteId: ctx.quoteId, externalId: externalId(), note: 'bench' }),
        take: (data, ctx) => Boolean((ctx.referenceId = data.referenceId)),
      },
      // No body: the sandbox endpoints take none (docs/partner-guide.md, "Sandbox testing").
      { name: 'approve', status: 200, path: (ctx) => `/partner/v1/sandbox/collection/${encodeURIComponent(ctx.referenceId)}/approve`, take: completed },
    ],
  };
}

/**
 * Drives one flow for `durationSeconds` with `connections` connections; each connection loops the
 * flow's steps in order. Resolves { flowsPerSecond, flows, started, p50Ms, p99Ms, steps: { name:
 * { p50Ms, p99Ms, ok } }, requests, non2xx, errors, timeouts, unexpected, firstFailure, durationSeconds }.
 */
function measureFlow(context, flowName, { connections, durationSeconds }) {
  const steps = flowDefinitions(() => `bench-${context.runId}-${(context.externalSeq = (context.externalSeq || 0) + 1)}`)[flowName];
  const targets = context.flowTargets;
  const all = new LatencySamples();
  const perStep = steps.map(() => new LatencySamples());
  let answered; // the step whose answer autocannon is about to report ('response' follows onResponse synchronously)
  let flows = 0;
  let started = 0;
  let unexpected = 0;
  let firstFailure;
  const fail = (message) => {
    if (firstFailure === undefined) firstFailure = message;
  };
  const authorization = context.headers.authorization;
  const requests = steps.map((step, index) => ({
    method: 'POST',
    setupRequest: (request, ctx) => {
      if (index === 0) {
        ctx.target = targets[context.nextTarget % targets.length];
        context.nextTarget += 1;
        started += 1;
      } else if (!ctx.ok) {
        return null; // the previous step failed: autocannon restarts the sequence at the quote
      }
      const body = step.body ? step.body(ctx) : undefined;
      return {
        ...request,
        path: `/api/v1${step.path(ctx)}`,
        headers: body === undefined ? { authorization } : { authorization, 'content-type': 'application/json' },
        body,
      };
    },
    onResponse: (status, body, ctx) => {
      answered = { index, ok: status >= 200 && status < 300 };
      ctx.ok = false;
      if (status !== step.status) {
        if (answered.ok) unexpected += 1; // another 2xx than the contract's
        fail(`${flowName} ${step.name}: HTTP ${status} ${String(body).slice(0, 300)}`);
        return;
      }
      let data;
      try {
        data = JSON.parse(body).data;
      } catch {
        data = undefined;
      }
      if (!data || !step.take(data, ctx)) {
        unexpected += 1;
        fail(`${flowName} ${step.name}: unexpected answer ${String(body).slice(0, 300)}`);
        return;
      }
      ctx.ok = true;
      if (index === steps.length - 1) flows += 1;
    },
  }));
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: context.gatewayBaseUrl,
        connections,
        duration: durationSeconds,
        pipelining: 1,
        timeout: 30, // the transfer's own budget is 25 s (docs/partner-guide.md)
        requests,
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const percentiles = (samples) => {
          const { 50: p50Ms, 99: p99Ms } = samples.percentiles([50, 99]);
          return { p50Ms, p99Ms, ok: samples.count };
        };
        resolve({
          flowsPerSecond: flows / result.duration,
          flows,
          started,
          ...percentiles(all),
          steps: Object.fromEntries(steps.map((step, index) => [step.name, percentiles(perStep[index])])),
          requests: all.count,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          unexpected,
          firstFailure,
          durationSeconds: result.duration,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      const step = answered;
      answered = undefined;
      if (!step || !step.ok) return;
      all.add(responseTimeMs);
      perStep[step.index].add(responseTimeMs);
    });
    instance.on('reqError', (error) => fail(error.message));
  });
}

/** CPU seconds per process over a round: every service, the load generator (this process), Postgres. */
function flowCpuMeter(context, monitor) {
  const pidsOf = (name) => context.group.children.filter((record) => record.name === name && context.group.isRunning(record)).map((record) => record.process.pid);
  const databaseName = new URL(context.databaseUrl).pathname.slice(1);
  return cpuMeter(async () => ({
    ...Object.fromEntries(processNames.map((name) => [name, pidsOf(name)])),
    'load generator': [process.pid],
    postgres: await databaseBackendPids(monitor, databaseName),
  }));
}

/** CPU milliseconds per completed flow, per process, over some rounds. */
function cpuPerFlow(results) {
  const flows = results.reduce((sum, result) => sum + result.flows, 0);
  const perGroup = {};
  for (const result of results) {
    for (const [name, seconds] of Object.entries(result.cpuSeconds || {})) perGroup[name] = (perGroup[name] || 0) + seconds;
  }
  const rows = Object.entries(perGroup)
    .map(([name, seconds]) => [name, flows > 0 ? (seconds * 1000) / flows : null])
    .filter(([, ms]) => ms !== null && ms >= 0.005);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  return { ...Object.fromEntries(rows), total };
}

const mean = (values) => {
  const present = values.filter((value) => typeof value === 'number');
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length;
};

/** Means over rounds (percentiles: the mean of each round's, as the other benchmarks do); failure counts summed. */
function summariseFlow(results) {
  const stepNames = Object.keys(results[0].steps);
  return {
    flowsPerSecond: mean(results.map((result) => result.flowsPerSecond)),
    runs: results.map((result) => result.flowsPerSecond),
    flows: results.reduce((sum, result) => sum + result.flows, 0),
    p50Ms: mean(results.map((result) => result.p50Ms)),
    p99Ms: mean(results.map((result) => result.p99Ms)),
    steps: Object.fromEntries(
      stepNames.map((name) => [name, { p50Ms: mean(results.map((result) => result.steps[name].p50Ms)), p99Ms: mean(results.map((result) => result.steps[name].p99Ms)) }]),
    ),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
    unexpected: results.reduce((sum, result) => sum + result.unexpected, 0),
    firstFailure: results.map((result) => result.firstFailure).find((failure) => failure !== undefined),
    cpu: cpuPerFlow(results),
    ourCores: mean(results.map((result) => result.ourCores)),
    otherCores: mean(results.map((result) => result.otherCores)),
  };
}

/**
 * --pg-waits: samples pg_stat_activity every 100 ms during the measured rounds and tallies, per
 * service (application_name), what its busy sessions were doing: running, waiting for a lock
 * (which statement), or "idle in transaction" (the service holds a transaction open and Postgres
 * waits for its next statement). Averages are sessions at a time; this is where a flow's time goes
 * when it is not CPU. Off by default: its query costs a little Postgres CPU.
 */
function pgWaitSampler(monitor) {
  const states = new Map();
  const statements = new Map();
  let samples = 0;
  let timer;
  let busy = false;
  const add = (map, key) => map.set(key, (map.get(key) || 0) + 1);
  const sample = async () => {
    if (busy) return;
    busy = true;
    try {
      const result = await monitor.query(
        `SELECT application_name AS service, state, coalesce(wait_event_type || ':' || wait_event, 'cpu') AS wait,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS statement
           FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`,
      );
      samples += 1;
      for (const row of result.rows) {
        const service = row.service || '?';
        add(states, `${service} | ${row.state === 'active' ? `active, ${row.wait}` : `${row.state} (waiting for the service)`}`);
        if (row.state === 'active' && row.wait.startsWith('Lock:')) add(statements, `${service} | ${row.wait} | ${row.statement}`);
      }
    } catch {
      // a missed sample
    } finally {
      busy = false;
    }
  };
  return {
    start: () => {
      timer = setInterval(sample, 100);
    },
    stop: () => clearInterval(timer),
    report: () => {
      const top = (map, count) =>
        [...map.entries()].sort((left, right) => right[1] - left[1]).slice(0, count).map(([key, value]) => ({ what: key, sessions: Number((value / Math.max(1, samples)).toFixed(2)) }));
      return { samples, states: top(states, 15), lock_waits: top(statements, 8) };
    },
  };
}

/** The flows benchmark's stack (quote.js startQuoteStack with collections and disbursements, sandbox), with the flows' targets. */
async function startFlowsStack(options, { log, users }) {
  const context = await startQuoteStack({
    log,
    users,
    cpuProfile: options.cpuProfile,
    services: flowServices,
    databaseName: 'partner_wallet_bench_flows',
    environment: 'sandbox',
    funding: flowPartnerFunding,
  });
  context.flowTargets = ['LRD', 'USD'].flatMap((currency) => context.phones.map((phone) => ({ phone, currency })));
  context.nextTarget = 0;
  return context;
}

/** Throws, with the end of its log, when a process of the stack has died. */
function guardAgainstDeath(context) {
  const died = context.died();
  if (died) throw new Error(describeDeath(died));
}

/** One flow of each kind, checked, before any load: a broken stack fails here with its answer. */
async function checkFlows(context, { log }) {
  for (const flowName of ['disbursement', 'collection']) {
    const result = await measureFlow(context, flowName, { connections: 1, durationSeconds: 1 });
    if (result.flows === 0 || result.non2xx > 0 || result.errors > 0 || result.unexpected > 0) {
      throw new Error(`the ${flowName} flow does not complete: ${result.firstFailure || 'no flow completed in 1 s'}`);
    }
    log(`  ${flowName} flow works (${result.flows} in 1 s on one connection)`);
  }
}

/**
 * Starts the stack, checks one flow of each kind, warms up, then the interleaved rounds
 * (disbursement, collection; disbursement, collection; ...), and stops everything it started.
 * `referenceRun(label)`, when given, runs the shared reference while this stack is up and idle:
 * once before the first round and once after each round, so every round has a reference run on
 * each side of it, a minute or so apart rather than minutes (the machine's speed drifts). What our
 * idle processes used meanwhile is measured and reported with each reference run.
 */
async function runFlowsBenchmark(options, { log, referenceRun }) {
  const users = options.users || 64;
  const context = await startFlowsStack(options, { log, users });
  const guard = () => guardAgainstDeath(context);
  const { Pool } = require('pg');
  const monitor = new Pool({ connectionString: context.databaseUrl, max: 1, application_name: 'bench-cpu-monitor' });
  try {
    await checkFlows(context, { log });
    const meter = flowCpuMeter(context, monitor);
    const waits = options.pgWaits ? { disbursement: pgWaitSampler(monitor), collection: pgWaitSampler(monitor) } : undefined;
    const flowNames = ['disbursement', 'collection'];
    log(`warm-up: ${options.warmupSeconds} s per flow, ${options.connections} connections`);
    for (const flowName of flowNames) {
      await measureFlow(context, flowName, { connections: options.connections, durationSeconds: options.warmupSeconds });
      await sleep(drainMs);
      guard();
    }
    const collected = { disbursement: [], collection: [] };
    const referenceRuns = [];
    const runReferenceBeside = async (label) => {
      if (!referenceRun) return;
      await meter.start();
      const startedAt = Date.now();
      const result = await referenceRun(label);
      const idleSeconds = Object.values(await meter.stop()).reduce((sum, seconds) => sum + seconds, 0);
      const idleCores = idleSeconds / ((Date.now() - startedAt) / 1000);
      if (result) log(`    (our idle stack used ${format(idleCores)} cores meanwhile)`);
      referenceRuns.push(result && { ...result, ourIdleCores: idleCores });
      guard();
    };
    await runReferenceBeside('before round 1');
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const flowName of flowNames) {
        await meter.start();
        const machineBefore = machineBusySeconds();
        if (waits) waits[flowName].start();
        const measured = await measureFlow(context, flowName, { connections: options.connections, durationSeconds: options.durationSeconds });
        if (waits) waits[flowName].stop();
        const machineAfter = machineBusySeconds();
        const cpuSeconds = await meter.stop();
        const ours = Object.values(cpuSeconds).reduce((sum, seconds) => sum + seconds, 0);
        // Everything else the machine ran during the round: Postgres' own background processes, and other people's work.
        const otherSeconds = machineBefore !== undefined && machineAfter !== undefined ? Math.max(0, machineAfter - machineBefore - ours) : undefined;
        const result = { ...measured, cpuSeconds, ourCores: ours / measured.durationSeconds, otherCores: otherSeconds === undefined ? null : otherSeconds / measured.durationSeconds };
        await sleep(drainMs);
        guard();
        collected[flowName].push(result);
        const steps = Object.entries(result.steps).map(([name, step]) => `${name} ${format(step.p50Ms)}/${format(step.p99Ms)}`).join(', ');
        log(
          `  ${flowName.padEnd(12)} round ${round}: ${result.flowsPerSecond.toFixed(0)} flows/s, per request p50 ${format(result.p50Ms)} ms, p99 ${format(result.p99Ms)} ms ` +
            `(p50/p99 ms: ${steps}), CPU ${format(cpuPerFlow([result]).total)} ms/flow` +
            `, cores busy: ours ${format(result.ourCores)}${result.otherCores === null ? '' : `, other processes ${format(result.otherCores)}`}` +
            `${result.non2xx || result.errors || result.timeouts || result.unexpected ? `, non-2xx ${result.non2xx}, errors ${result.errors + result.timeouts}, unexpected ${result.unexpected} (first: ${result.firstFailure})` : ''}`,
        );
      }
      await runReferenceBeside(`after round ${round}`);
    }
    return {
      referenceRuns,
      users,
      targets: context.flowTargets.length,
      disbursement: summariseFlow(collected.disbursement),
      collection: summariseFlow(collected.collection),
      rounds: collected,
      pgWaits: waits && { disbursement: waits.disbursement.report(), collection: waits.collection.report() },
    };
  } finally {
    await monitor.end().catch(() => undefined);
    await stopBenchStack(context, { log });
    if (options.cpuProfile.length > 0) log(`CPU profiles (written as the processes stopped): ${context.profileDirectory}`);
  }
}

module.exports = { runFlowsBenchmark, startFlowsStack, checkFlows, guardAgainstDeath, measureFlow, flowDefinitions, processNames };
