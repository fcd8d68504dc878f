// The flows benchmark's open-loop mode (npm run bench -- flows --open-loop --rates 40,80): the
// disbursement flow (quote, transfer) through our gateway, and the shared reference's flow (quote,
// transfer) through its gateway, each offered the same fixed rates of flows per second whatever
// the answers (open-loop.js: no coordinated omission, latency from each flow's planned start).
//
// Both run at once on this machine but take turns: for each rate, rounds of ours then the
// reference (ours, reference, ours, reference, ...), the one not measured idle meanwhile. Each
// measurement is preceded by a warm-up at the same rate (fresh keep-alive connections, and the JIT
// of a process that idled through the other's turn). Per rate it reports p50/p90/p99/max per
// request and per flow of both, pooled over the rounds, and our p99 over the reference's.
'use strict';
const crypto = require('node:crypto');
const { startFlowsStack, checkFlows, flowDefinitions, guardAgainstDeath, processNames } = require('./flows');
const { stopBenchStack, format } = require('./gateway');
const { startReferenceServers, referenceAvailable, referenceScript } = require('./reference');
const { openLoopTarget, offerLoad, poolMeasurements } = require('./open-loop');
const { cpuMeter, databaseBackendPids, machineBusySeconds } = require('./cpu');
const { sleep } = require('../lib/http');

/** Flows in flight when a measurement ends finish before the next one starts. */
const pauseMs = 2_000;
/** A short check of each target before the rates: every flow must complete. */
const checkRatePerSecond = 5;
const checkSeconds = 1;

/** Our disbursement flow (flows.js) over every user x currency, as an open-loop target. */
function ourTarget(context) {
  const runId = crypto.randomBytes(4).toString('hex');
  let externalSeq = 0;
  const steps = flowDefinitions(() => `open-${runId}-${(externalSeq += 1)}`).disbursement.map((step) => ({
    ...step,
    // Our answers are enveloped: { success, data }.
    take: (json, ctx) => json !== null && typeof json === 'object' && json.data !== undefined && step.take(json.data, ctx),
  }));
  return openLoopTarget({
    name: 'ours',
    baseUrl: context.gatewayBaseUrl,
    steps,
    headers: { authorization: context.headers.authorization },
    ca: context.ca,
    nextContext: () => {
      const target = context.flowTargets[context.nextTarget % context.flowTargets.length];
      context.nextTarget += 1;
      return { target };
    },
  });
}

/** The reference's flow as its load.js drives it: partner 3's source accounts, random destinations and amounts. */
function referenceTarget(reference) {
  const runId = crypto.randomBytes(4).toString('hex');
  let externalSeq = 0;
  const pick = (count) => Math.floor(Math.random() * count);
  // As its load.js: REF_SOURCE_ACCOUNTS=1 debits one account (the hot row every disbursement of one of our partners debits).
  const sources = Math.min(1000, Math.max(1, Number(process.env.REF_SOURCE_ACCOUNTS || 1000)));
  const steps = [
    {
      name: 'quote',
      status: 201,
      path: () => '/quotes',
      body: () => JSON.stringify({ accountId: 2 + 10 * pick(sources), amount: 100 + pick(900) }),
      take: (json, ctx) => Boolean((ctx.quoteId = json.quoteId)),
    },
    {
      name: 'transfer',
      status: 201,
      path: () => '/transfers',
      body: (ctx) => JSON.stringify({ quoteId: ctx.quoteId, externalId: `${runId}-${(externalSeq += 1)}`, destinationAccountId: 10001 + pick(10000) }),
      take: (json) => json.status === 'COMPLETED',
    },
  ];
  return openLoopTarget({ name: 'reference', baseUrl: reference.baseUrl, steps, headers: reference.headers, nextContext: () => ({}) });
}

/** Every flow of a short, slow run completes, or the target is broken and the run stops here. */
async function checkTarget(target, { log }) {
  const result = await offerLoad(target, { ratePerSecond: checkRatePerSecond, durationSeconds: checkSeconds });
  if (result.completed !== result.offered) throw new Error(`the ${target.name} flow does not complete at ${checkRatePerSecond}/s: ${result.firstFailure || 'flows missing'}`);
  log(`  ${target.name} flow works (${result.completed} flows at ${checkRatePerSecond}/s)`);
}

/**
 * The processes behind a target, for its CPU meter: our services and gateway, or the reference's
 * two; this process (the load generator) and the Postgres backends of the target's database.
 */
function targetCpuMeter(context, monitor, { names, databaseName }) {
  const pidsOf = (name) => context.group.children.filter((record) => record.name === name && context.group.isRunning(record)).map((record) => record.process.pid);
  return cpuMeter(async () => ({
    ...Object.fromEntries(names.map((name) => [name, pidsOf(name)])),
    'load generator': [process.pid],
    postgres: await databaseBackendPids(monitor, databaseName),
  }));
}

/**
 * One warmed-up measurement of a target at a rate, with the cores its processes kept busy and
 * the cores everything else on the machine did (another job on a shared machine moves the tail).
 */
async function measureAtRate(target, ratePerSecond, options) {
  await offerLoad(target, { ratePerSecond, durationSeconds: options.warmupSeconds });
  await target.meter.start();
  const machineBefore = machineBusySeconds();
  const measured = await offerLoad(target, { ratePerSecond, durationSeconds: options.durationSeconds });
  const machineAfter = machineBusySeconds();
  const cpuSeconds = await target.meter.stop();
  const targetSeconds = Object.values(cpuSeconds).reduce((sum, seconds) => sum + seconds, 0);
  const otherSeconds = machineBefore !== undefined && machineAfter !== undefined ? Math.max(0, machineAfter - machineBefore - targetSeconds) : undefined;
  await sleep(pauseMs);
  return {
    ...measured,
    targetCores: targetSeconds / measured.elapsedSeconds,
    otherCores: otherSeconds === undefined ? null : otherSeconds / measured.elapsedSeconds,
  };
}

function describeMeasurement(measured) {
  const requests = poolMeasurements([measured]).requests;
  return (
    `per request p50 ${format(requests.p50)}, p90 ${format(requests.p90)}, p99 ${format(requests.p99)}, max ${format(requests.max)} ms; ` +
    `${measured.completed}/${measured.offered} flows completed${measured.skipped ? `, ${measured.skipped} skipped (too many in flight)` : ''}` +
    `${measured.failed ? `, ${measured.failed} failed (first: ${measured.firstFailure})` : ''}; cores busy: its processes ${format(measured.targetCores)}, ` +
    `other processes ${format(measured.otherCores)}; ` +
    `load generator's event-loop delay p99 ${format(measured.loopDelayMs.p99)} ms, max ${format(measured.loopDelayMs.max)} ms`
  );
}

/**
 * Starts our flows stack and (unless --no-reference, or it is missing) the reference's gateway and
 * service, checks both, then for each rate the interleaved rounds. Stops everything it started.
 * Resolves { users, referenceRan, rates: [{ rate, ours, reference }] } with pooled figures.
 */
async function runOpenLoopFlowsBenchmark(options, { log }) {
  const users = options.users || 64;
  const context = await startFlowsStack(options, { log, users });
  let reference;
  const { Pool } = require('pg');
  const monitor = new Pool({ connectionString: context.databaseUrl, max: 1, application_name: 'bench-cpu-monitor' });
  try {
    await checkFlows(context, { log });
    if (options.reference && referenceAvailable()) {
      reference = await startReferenceServers({
        group: context.group,
        adminUrl: context.databaseUrl,
        redisUrl: context.settings.redisUrl,
        databaseName: 'ref_flow_bench_open_loop',
        log,
      });
    } else if (options.reference) {
      log(`reference flow not found at ${referenceScript()}; continuing without it (ratios omitted)`);
    }
    const targets = [
      { ...ourTarget(context), meter: targetCpuMeter(context, monitor, { names: processNames, databaseName: new URL(context.databaseUrl).pathname.slice(1) }) },
      ...(reference ? [{ ...referenceTarget(reference), meter: targetCpuMeter(context, monitor, { names: reference.processNames, databaseName: reference.databaseName }) }] : []),
    ];
    for (const target of targets) await checkTarget(target, { log });
    guardAgainstDeath(context);
    const rates = [];
    for (const rate of options.rates) {
      const collected = Object.fromEntries(targets.map((target) => [target.name, []]));
      for (let round = 1; round <= options.rounds; round += 1) {
        for (const target of targets) {
          const measured = await measureAtRate(target, rate, options);
          guardAgainstDeath(context);
          collected[target.name].push(measured);
          log(`  ${String(rate).padStart(4)} flows/s ${target.name.padEnd(9)} round ${round}: ${describeMeasurement(measured)}`);
        }
      }
      const pooled = (measurements) => ({
        ...poolMeasurements(measurements),
        targetCores: meanOf(measurements.map((measured) => measured.targetCores)),
        otherCores: meanOf(measurements.map((measured) => measured.otherCores)),
      });
      rates.push({ rate, ours: pooled(collected.ours), reference: reference ? pooled(collected.reference) : undefined });
    }
    return { users, referenceRan: Boolean(reference), rates, stepNames: targets[0].steps.map((step) => step.name) };
  } finally {
    await monitor.end().catch(() => undefined);
    await stopBenchStack(context, { log });
    if (reference) await reference.dropDatabase().catch((error) => log(`could not drop the reference's database: ${error.message}`));
    if (options.cpuProfile.length > 0) log(`CPU profiles (written as the processes stopped): ${context.profileDirectory}`);
  }
}

function meanOf(values) {
  const present = values.filter((value) => typeof value === 'number');
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length;
}

module.exports = { runOpenLoopFlowsBenchmark };
