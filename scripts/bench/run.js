#!/usr/bin/env node
// npm run bench -- [gateway|quote|flows|webhooks|reference] [--duration S] [--connections N] [--rounds N]
//                  [--latency-connections N] [--warmup S] [--no-reference] [--pg-waits] (flows)
//                  [--open-loop] [--rates 40,80]   (flows: fixed offered rates instead of connections)
//                  [--users N]   (quote: 16, flows and webhooks: 64)
//                  [--cpu-prof quotes,wallet,gateway,auth,collections,disbursements,raw]   (quote and flows)
// No name runs every benchmark. Each benchmark of ours also runs the shared reference flow in the
// same run (before and after; the flows benchmark beside each round, its stack idle meanwhile),
// and reports its figures next to the reference (and as ratios), since
// absolute numbers on a shared 2-core machine move by tens of percent between runs.
// Progress goes to stderr; the human table and one JSON summary line go to stdout.
'use strict';
const { endProcess } = require('../lib/end-process');
const os = require('node:os');
const { runReference, referenceAvailable, referenceScript, referenceIsValid } = require('./reference');
const { startBenchStack, stopBenchStack, measureGateway, format } = require('./gateway');
const { runQuoteBenchmark } = require('./quote');
const { runFlowsBenchmark } = require('./flows');
const { runOpenLoopFlowsBenchmark } = require('./flows-open-loop');
const { runWebhooksBenchmark } = require('./webhooks');

const targetAddedP50Ms = 2;
/**
 * Issue 4: the disbursement flow keeps at least this share of the reference's flows/s. (Its
 * other half, p99 per request under 50 ms at 32 connections, is gone: by Little's law no
 * implementation reaches it on this machine; latency is judged in the open-loop mode.)
 */
const targetDisbursementRatio = 0.35;
/** Open loop: at this offered rate, our p99 per request is at most this many times the reference's. */
const targetOpenLoopRatePerSecond = 40;
const targetOpenLoopP99Ratio = 3;
const benchmarks = ['gateway', 'quote', 'flows', 'webhooks', 'reference'];
const profilable = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks', 'gateway', 'raw'];

const log = (line) => process.stderr.write(`${line}\n`);
const out = (line = '') => process.stdout.write(`${line}\n`);

/** "40,80" as [40, 80]: offered flows per second of the open-loop mode. */
function rateList(raw) {
  const rates = String(raw || '').split(',').map((rate) => rate.trim()).filter(Boolean).map(Number);
  if (rates.length === 0 || rates.some((rate) => !Number.isFinite(rate) || rate <= 0)) throw new Error(`--rates takes a comma-separated list of flows per second (got ${JSON.stringify(raw)})`);
  return rates;
}

function parseArguments(argv, env) {
  const number = (name, raw, fallback) => {
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got ${JSON.stringify(raw)})`);
    return value;
  };
  const options = {
    names: [],
    durationSeconds: number('BENCH_DURATION_SECONDS', env.BENCH_DURATION_SECONDS, 10),
    connections: number('BENCH_CONNECTIONS', env.BENCH_CONNECTIONS, 32),
    rounds: number('BENCH_ROUNDS', env.BENCH_ROUNDS, 2),
    latencyConnections: number('BENCH_LATENCY_CONNECTIONS', env.BENCH_LATENCY_CONNECTIONS, 1),
    warmupSeconds: number('BENCH_WARMUP_SECONDS', env.BENCH_WARMUP_SECONDS, 3),
    reference: env.BENCH_REFERENCE !== 'off',
    pgWaits: env.BENCH_PG_WAITS === 'on',
    openLoop: env.BENCH_OPEN_LOOP === 'on',
    rates: env.BENCH_RATES ? rateList(env.BENCH_RATES) : [40, 80],
    users: number('BENCH_USERS', env.BENCH_USERS, undefined), // each benchmark has its own default
    cpuProfile: [],
  };
  const profileList = (raw) => {
    const names = String(raw || '').split(',').map((name) => name.trim()).filter(Boolean);
    const unknown = names.filter((name) => !profilable.includes(name));
    if (names.length === 0 || unknown.length > 0) throw new Error(`--cpu-prof takes a comma-separated list of ${profilable.join(', ')} (got ${JSON.stringify(raw)})`);
    return names;
  };
  if (env.BENCH_CPU_PROF) options.cpuProfile = profileList(env.BENCH_CPU_PROF);
  const flags = {
    '--duration': 'durationSeconds',
    '--connections': 'connections',
    '--rounds': 'rounds',
    '--latency-connections': 'latencyConnections',
    '--warmup': 'warmupSeconds',
    '--users': 'users',
  };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--no-reference') options.reference = false;
    else if (argument === '--pg-waits') options.pgWaits = true;
    else if (argument === '--open-loop') options.openLoop = true;
    else if (argument === '--rates') {
      options.rates = rateList(argv[index + 1]);
      index += 1;
    }
    else if (argument === '--cpu-prof') {
      options.cpuProfile = profileList(argv[index + 1]);
      index += 1;
    } else if (flags[argument]) {
      options[flags[argument]] = number(argument, argv[index + 1], undefined);
      index += 1;
    } else if (benchmarks.includes(argument)) options.names.push(argument);
    else throw new Error(`unknown argument ${JSON.stringify(argument)}; benchmarks: ${benchmarks.join(', ')}`);
  }
  if (options.names.length === 0) options.names = [...benchmarks];
  options.rounds = Math.round(options.rounds);
  options.connections = Math.round(options.connections);
  options.latencyConnections = Math.round(options.latencyConnections);
  if (options.users !== undefined) options.users = Math.round(options.users);
  return options;
}

async function referenceRun(options, label) {
  if (!options.reference) return undefined;
  if (!referenceAvailable()) {
    log(`reference flow not found at ${referenceScript()}; continuing without it (ratios omitted)`);
    return undefined;
  }
  log(`reference flow (${label}): ${options.connections} connections, ${options.durationSeconds} s`);
  const result = await runReference({ connections: options.connections, durationSeconds: options.durationSeconds });
  log(`  reference ${label}: ${result.flows_per_s} flows/s, p50 ${result.req_p50_ms} ms, p99 ${result.req_p99_ms} ms${referenceIsValid(result) ? '' : ' (INVALID: non-2xx or errors)'}`);
  return result;
}

function referenceSummary(runs) {
  const valid = runs.filter((run) => run && referenceIsValid(run));
  if (valid.length === 0) return undefined;
  return {
    flowsPerSecond: valid.reduce((sum, run) => sum + run.flows_per_s, 0) / valid.length,
    runs: valid.map((run) => run.flows_per_s),
    p50Ms: valid.reduce((sum, run) => sum + run.req_p50_ms, 0) / valid.length,
    p99Ms: valid.reduce((sum, run) => sum + run.req_p99_ms, 0) / valid.length,
  };
}

async function gatewayBenchmark(options) {
  const before = await referenceRun(options, 'before');
  log('starting the bench stack (upstream, auth, gateway)');
  const context = await startBenchStack({ log });
  let measured;
  try {
    measured = await measureGateway(context, options, { log });
  } finally {
    await stopBenchStack(context, { log });
    log('bench stack stopped');
  }
  const after = await referenceRun(options, 'after');
  const reference = referenceSummary([before, after]);
  const addedLatencyP50Ms = measured.latency.gateway.p50Ms - measured.latency.direct.p50Ms;
  const addedLoadP50Ms = measured.load.gateway.p50Ms - measured.load.direct.p50Ms;
  const valid = ['load', 'latency'].every((scenario) =>
    ['direct', 'gateway'].every((target) => measured[scenario][target].non2xx === 0 && measured[scenario][target].errors === 0),
  );
  const ratio = (value) => (reference ? value / reference.flowsPerSecond : null);
  const summary = {
    bench: 'gateway',
    node: process.version,
    cpus: os.cpus().length,
    connections: options.connections,
    duration_s: options.durationSeconds,
    rounds: options.rounds,
    latency_connections: options.latencyConnections,
    load: {
      direct: rounded(measured.load.direct),
      gateway: rounded(measured.load.gateway),
      added_p50_ms: round(addedLoadP50Ms),
    },
    latency: {
      direct: rounded(measured.latency.direct),
      gateway: rounded(measured.latency.gateway),
      added_p50_ms: round(addedLatencyP50Ms),
    },
    target_added_p50_ms: targetAddedP50Ms,
    meets_target: valid && addedLatencyP50Ms < targetAddedP50Ms,
    valid,
    reference_flows_per_s: reference ? round(reference.flowsPerSecond, 0) : null,
    reference_runs: reference ? reference.runs : [],
    gateway_rps_per_reference_flow: reference ? round(ratio(measured.load.gateway.requestsPerSecond)) : null,
    direct_rps_per_reference_flow: reference ? round(ratio(measured.load.direct.requestsPerSecond)) : null,
  };
  printGatewayTable(summary);
  return summary;
}

function round(value, digits = 3) {
  return typeof value === 'number' ? Number(value.toFixed(digits)) : null;
}

function rounded(stats) {
  return { req_per_s: round(stats.requestsPerSecond, 0), p50_ms: round(stats.p50Ms), p99_ms: round(stats.p99Ms), non2xx: stats.non2xx, errors: stats.errors };
}

function printGatewayTable(summary) {
  const row = (cells) => out(cells.map((cell, index) => String(cell).padEnd(index === 0 ? 34 : 12)).join(''));
  out('');
  out(`Gateway benchmark: GET ${'/partner/v1/balance'}, ${summary.rounds} interleaved rounds of ${summary.duration_s} s per target (node ${summary.node}, ${summary.cpus} CPUs)`);
  row(['', 'direct', 'gateway', 'gateway adds']);
  row([`load (${summary.connections} connections) req/s`, summary.load.direct.req_per_s, summary.load.gateway.req_per_s, '']);
  row(['load p50 ms', format(summary.load.direct.p50_ms), format(summary.load.gateway.p50_ms), format(summary.load.added_p50_ms)]);
  row(['load p99 ms', format(summary.load.direct.p99_ms), format(summary.load.gateway.p99_ms), format(summary.load.gateway.p99_ms - summary.load.direct.p99_ms)]);
  row([`latency (${summary.latency_connections} connection) req/s`, summary.latency.direct.req_per_s, summary.latency.gateway.req_per_s, '']);
  row(['latency p50 ms', format(summary.latency.direct.p50_ms), format(summary.latency.gateway.p50_ms), format(summary.latency.added_p50_ms)]);
  row(['latency p99 ms', format(summary.latency.direct.p99_ms), format(summary.latency.gateway.p99_ms), format(summary.latency.gateway.p99_ms - summary.latency.direct.p99_ms)]);
  out('');
  out(
    `Target: the gateway adds < ${summary.target_added_p50_ms} ms at p50 (judged on the latency run): ` +
      `${summary.meets_target ? 'MET' : 'NOT MET'} (+${format(summary.latency.added_p50_ms)} ms)${summary.valid ? '' : '; INVALID run: some requests failed'}`,
  );
  if (summary.reference_flows_per_s !== null) {
    out(`Reference flow, same run: ${summary.reference_flows_per_s} flows/s (runs: ${summary.reference_runs.join(', ')}).`);
    out(
      `Ratios to it: gateway ${summary.gateway_rps_per_reference_flow} req/s per reference flow/s, direct ${summary.direct_rps_per_reference_flow}. ` +
        'A ratio compares runs (or machines), not designs: the reference does one quote and one transfer (two HTTP calls and two Postgres ' +
        'transactions) per flow, our request one Redis check and no database, so only the ratio\'s change between runs means something.',
    );
  } else {
    out('Reference flow: not run (ratios omitted).');
  }
}

async function quoteBenchmark(options) {
  const before = await referenceRun(options, 'before');
  const quoteOptions = { ...options, users: options.users || Math.round(Number(process.env.BENCH_QUOTE_USERS) || 16) };
  log(`starting the quote bench stack (auth, wallet, quotes, gateway; ${quoteOptions.users} users)`);
  const { measured, sqlCheck, users, quotesInRotation } = await runQuoteBenchmark(quoteOptions, { log });
  log('quote bench stack stopped');
  const after = await referenceRun(options, 'after');
  const reference = referenceSummary([before, after]);
  const requestsValid = ['load', 'latency'].every((scenario) =>
    ['raw', 'gateway'].every((target) => measured[scenario][target].non2xx === 0 && measured[scenario][target].errors === 0),
  );
  const { load, latency } = measured;
  const perReference = (value) => (reference ? round(value / reference.flowsPerSecond) : null);
  const summary = {
    bench: 'quote',
    node: process.version,
    cpus: os.cpus().length,
    connections: options.connections,
    duration_s: options.durationSeconds,
    rounds: options.rounds,
    latency_connections: options.latencyConnections,
    users,
    quotes_in_rotation: quotesInRotation,
    gateway: { quotes_per_s: round(load.gateway.requestsPerSecond, 0), p50_ms: round(load.gateway.p50Ms), p99_ms: round(load.gateway.p99Ms), non2xx: load.gateway.non2xx, errors: load.gateway.errors },
    raw: { ops_per_s: round(load.raw.requestsPerSecond, 0), p50_ms: round(load.raw.p50Ms), p99_ms: round(load.raw.p99Ms), errors: load.raw.errors },
    gateway_per_raw: round(load.gateway.requestsPerSecond / load.raw.requestsPerSecond),
    latency: {
      gateway: rounded(latency.gateway),
      raw: rounded(latency.raw),
      added_p50_ms: round(latency.gateway.p50Ms - latency.raw.p50Ms),
    },
    cpu_ms_per_quote: { raw: roundAll(measured.cpu.load.raw), gateway: roundAll(measured.cpu.load.gateway) },
    same_database_work: sqlCheck.same,
    database_work_per_quote: Object.fromEntries(sqlCheck.tables.map((row) => [row.table, row.gateway])),
    valid: requestsValid && sqlCheck.same,
    reference_flows_per_s: reference ? round(reference.flowsPerSecond, 0) : null,
    reference_runs: reference ? reference.runs : [],
    quotes_per_reference_flow: perReference(load.gateway.requestsPerSecond),
    raw_ops_per_reference_flow: perReference(load.raw.requestsPerSecond),
  };
  printQuoteTable(summary, sqlCheck);
  return summary;
}

function roundAll(values) {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, round(value, 2)]));
}

function describeCpu(values) {
  const parts = Object.entries(values).filter(([name]) => name !== 'total').sort((left, right) => right[1] - left[1]);
  return `${parts.map(([name, ms]) => `${name} ${format(ms)}`).join(', ')} = ${format(values.total)}`;
}

function printQuoteTable(summary, sqlCheck) {
  const row = (cells) => out(cells.map((cell, index) => String(cell).padEnd(index === 0 ? 34 : 12)).join(''));
  const { gateway, raw, latency } = summary;
  out('');
  out(
    `Quote benchmark: POST /partner/v1/{disbursement,collection}/quote over ${summary.users} users x 2 types x 2 currencies, ` +
      `${summary.rounds} interleaved rounds of ${summary.duration_s} s per target (node ${summary.node}, ${summary.cpus} CPUs)`,
  );
  row(['', 'raw SQL', 'gateway', 'gateway/raw']);
  row([`load (${summary.connections} connections) quotes/s`, raw.ops_per_s, gateway.quotes_per_s, format(summary.gateway_per_raw, 3)]);
  row(['load p50 ms', format(raw.p50_ms), format(gateway.p50_ms), format(gateway.p50_ms / raw.p50_ms)]);
  row(['load p99 ms', format(raw.p99_ms), format(gateway.p99_ms), format(gateway.p99_ms / raw.p99_ms)]);
  row([`latency (${summary.latency_connections} connection) quotes/s`, latency.raw.req_per_s, latency.gateway.req_per_s, format(latency.gateway.req_per_s / latency.raw.req_per_s, 3)]);
  row(['latency p50 ms', format(latency.raw.p50_ms), format(latency.gateway.p50_ms), format(latency.gateway.p50_ms / latency.raw.p50_ms)]);
  row(['latency p99 ms', format(latency.raw.p99_ms), format(latency.gateway.p99_ms), format(latency.gateway.p99_ms / latency.raw.p99_ms)]);
  out(`CPU ms per quote under load, raw:     ${describeCpu(summary.cpu_ms_per_quote.raw)}`);
  out(`CPU ms per quote under load, gateway: ${describeCpu(summary.cpu_ms_per_quote.gateway)}`);
  out('');
  out(
    `Raw SQL: the statements one quote runs (fee schedule, the wallet's read-only check transaction, the quote INSERT) on the same ` +
      `pools, without HTTP. Same tables touched the same number of times per quote: ${summary.same_database_work ? 'yes' : 'NO (the raw figure is not comparable; update scripts/bench/quote-raw.js)'}` +
      ` (${sqlCheck.tables.map((entry) => `${entry.table} ${entry.gateway.seq_scan + entry.gateway.idx_scan} scans${entry.gateway.n_tup_ins ? `, ${entry.gateway.n_tup_ins} insert` : ''}`).join('; ')}).`,
  );
  out(`Non-2xx ${gateway.non2xx}, errors ${gateway.errors} (gateway); errors ${raw.errors} (raw).${summary.valid ? '' : ' INVALID run.'}`);
  if (summary.reference_flows_per_s !== null) {
    out(`Reference flow, same run: ${summary.reference_flows_per_s} flows/s (runs: ${summary.reference_runs.join(', ')}).`);
    out(
      `Ratios to it: ${summary.quotes_per_reference_flow} quotes/s per reference flow/s through the gateway, ${summary.raw_ops_per_reference_flow} raw. ` +
        'A reference flow is a quote plus a transfer (two requests, two transactions); a quote here is one request and three transactions ' +
        '(fee read, check snapshot, insert) across three processes, so compare the ratio between runs, not with 1.',
    );
  } else {
    out('Reference flow: not run (ratios omitted).');
  }
}

/**
 * A round's ratio is its flows/s over the mean of the reference runs on either side of it (runs
 * [round - 1] and [round]); the flow's ratio is the mean of its rounds' ratios. Undefined when a
 * round has no valid reference run beside it.
 */
function perRoundRatio(rounds, referenceRuns) {
  const ratios = rounds.map((round, index) => {
    const beside = referenceSummary([referenceRuns[index], referenceRuns[index + 1]]);
    return beside ? round.flowsPerSecond / beside.flowsPerSecond : undefined;
  });
  if (ratios.length === 0 || ratios.some((ratio) => ratio === undefined)) return undefined;
  return { mean: ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length, rounds: ratios };
}

async function flowsBenchmark(options) {
  if (options.openLoop) return openLoopFlowsBenchmark(options);
  log(`starting the flows bench stack (auth, wallet, quotes, collections, disbursements, gateway; sandbox; ${options.users || 64} users)`);
  // The reference runs beside the rounds, while the stack is up and idle (see runFlowsBenchmark).
  const measured = await runFlowsBenchmark(options, { log, referenceRun: options.reference ? (label) => referenceRun(options, label) : undefined });
  log('flows bench stack stopped');
  const reference = referenceSummary(measured.referenceRuns);
  const ratios = {
    disbursement: reference ? perRoundRatio(measured.rounds.disbursement, measured.referenceRuns) : undefined,
    collection: reference ? perRoundRatio(measured.rounds.collection, measured.referenceRuns) : undefined,
  };
  const idleCores = measured.referenceRuns.filter(Boolean).map((run) => run.ourIdleCores);
  const flowSummary = (flow, ratio) => ({
    flows_per_s: round(flow.flowsPerSecond, 0),
    runs: flow.runs.map((value) => round(value, 0)),
    flows: flow.flows,
    req_p50_ms: round(flow.p50Ms),
    req_p99_ms: round(flow.p99Ms),
    steps: Object.fromEntries(Object.entries(flow.steps).map(([name, step]) => [name, { p50_ms: round(step.p50Ms), p99_ms: round(step.p99Ms) }])),
    non2xx: flow.non2xx,
    errors: flow.errors,
    unexpected: flow.unexpected,
    ...(flow.firstFailure ? { first_failure: flow.firstFailure } : {}),
    cpu_ms_per_flow: roundAll(flow.cpu),
    cores_busy: { ours: round(flow.ourCores, 2), other_processes: round(flow.otherCores, 2) },
    per_reference_flow: ratio ? round(ratio.mean) : null,
    per_reference_flow_rounds: ratio ? ratio.rounds.map((value) => round(value)) : [],
  });
  const disbursement = flowSummary(measured.disbursement, ratios.disbursement);
  const collection = flowSummary(measured.collection, ratios.collection);
  const valid = [disbursement, collection].every((flow) => flow.non2xx === 0 && flow.errors === 0 && flow.unexpected === 0 && flow.flows > 0);
  const meetsRatio = disbursement.per_reference_flow !== null && disbursement.per_reference_flow >= targetDisbursementRatio;
  const summary = {
    bench: 'flows',
    node: process.version,
    cpus: os.cpus().length,
    cpu_model: (os.cpus()[0] || {}).model,
    connections: options.connections,
    duration_s: options.durationSeconds,
    rounds: options.rounds,
    users: measured.users,
    disbursement,
    collection,
    reference_flows_per_s: reference ? round(reference.flowsPerSecond, 0) : null,
    reference_runs: reference ? reference.runs : [],
    reference_p99_ms: reference ? round(reference.p99Ms) : null,
    reference_beside_rounds: true,
    our_idle_cores_during_reference: idleCores.length > 0 ? round(Math.max(...idleCores), 2) : null,
    target: { disbursement_per_reference_flow: targetDisbursementRatio },
    meets_target: valid && meetsRatio,
    valid,
    ...(measured.pgWaits ? { pg_waits: measured.pgWaits } : {}),
  };
  printFlowsTable(summary, { meetsRatio });
  return summary;
}

function printFlowsTable(summary, { meetsRatio }) {
  const row = (cells) => out(cells.map((cell, index) => String(cell).padEnd(index === 0 ? 30 : 16)).join(''));
  const flows = { disbursement: summary.disbursement, collection: summary.collection };
  out('');
  out(
    `Flows benchmark: complete flows through the gateway (sandbox), ${summary.connections} connections each looping one flow, ` +
      `${summary.users} users x 2 currencies, ${summary.rounds} interleaved rounds of ${summary.duration_s} s per flow ` +
      `(node ${summary.node}, ${summary.cpus} CPUs, ${summary.cpu_model})`,
  );
  row(['', 'disbursement', 'collection', 'reference']);
  row(['flows/s', flows.disbursement.flows_per_s, flows.collection.flows_per_s, summary.reference_flows_per_s ?? 'n/a']);
  row(['flows/s per reference flow/s', flows.disbursement.per_reference_flow ?? 'n/a', flows.collection.per_reference_flow ?? 'n/a', summary.reference_flows_per_s === null ? 'n/a' : '1']);
  row(['requests per flow', Object.keys(flows.disbursement.steps).length, Object.keys(flows.collection.steps).length, 2]);
  row(['per request p50 ms', format(flows.disbursement.req_p50_ms), format(flows.collection.req_p50_ms), 'n/a']);
  row(['per request p99 ms', format(flows.disbursement.req_p99_ms), format(flows.collection.req_p99_ms), summary.reference_p99_ms === null ? 'n/a' : format(summary.reference_p99_ms)]);
  for (const [name, flow] of Object.entries(flows)) {
    out(`  ${name} per step p50/p99 ms: ${Object.entries(flow.steps).map(([step, values]) => `${step} ${format(values.p50_ms)}/${format(values.p99_ms)}`).join(', ')}`);
  }
  for (const [name, flow] of Object.entries(flows)) out(`CPU ms per ${name} flow: ${describeCpu(flow.cpu_ms_per_flow)}`);
  for (const [name, flow] of Object.entries(flows)) {
    if (flow.cores_busy.other_processes === null) continue;
    out(
      `Cores busy during the ${name} rounds: ours ${format(flow.cores_busy.ours)}, other processes ${format(flow.cores_busy.other_processes)} of ${summary.cpus}` +
        `${flow.cores_busy.other_processes > 0.25 ? ' (the machine was shared: the figures, and the reference\'s, are depressed)' : ''}.`,
    );
  }
  if (summary.pg_waits) {
    for (const [name, waits] of Object.entries(summary.pg_waits)) {
      out(`Postgres sessions during the ${name} rounds (average busy sessions, ${waits.samples} samples; service | state):`);
      for (const entry of waits.states) out(`  ${format(entry.sessions)}  ${entry.what}`);
      for (const entry of waits.lock_waits) out(`  lock wait ${format(entry.sessions)}  ${entry.what}`);
    }
  }
  out(
    `Non-2xx ${flows.disbursement.non2xx + flows.collection.non2xx}, errors ${flows.disbursement.errors + flows.collection.errors}, ` +
      `unexpected answers ${flows.disbursement.unexpected + flows.collection.unexpected}.${summary.valid ? '' : ` INVALID run (first failure: ${flows.disbursement.first_failure || flows.collection.first_failure || 'none'}).`}`,
  );
  out('');
  if (summary.reference_flows_per_s !== null) {
    out(
      `Reference flow, same run, beside the rounds (before round 1 and after each round, our stack idle, using at most ` +
        `${format(summary.our_idle_cores_during_reference)} cores): ${summary.reference_flows_per_s} flows/s (runs: ${summary.reference_runs.join(', ')}); its p99 is over its two requests.`,
    );
    out(
      `Ratios per round (each round over the mean of the reference runs on either side of it): disbursement ${flows.disbursement.per_reference_flow_rounds.join(', ')}, ` +
        `collection ${flows.collection.per_reference_flow_rounds.join(', ')}; the table shows their mean.`,
    );
  } else {
    out('Reference flow: not run (no ratio, so the target cannot be judged).');
  }
  out(
    `Target (issue 4): disbursement flows/s >= ${summary.target.disbursement_per_reference_flow} x the reference's (${flows.disbursement.per_reference_flow ?? 'n/a'}: ${meetsRatio ? 'yes' : 'no'}): ` +
      `${summary.meets_target ? 'MET' : 'NOT MET'}${summary.valid ? '' : ' (INVALID run)'}. Latency is judged in the open-loop mode (--open-loop).`,
  );
}

async function openLoopFlowsBenchmark(options) {
  log(
    `starting the flows bench stack (auth, wallet, quotes, collections, disbursements, gateway; sandbox; ${options.users || 64} users) ` +
      `for the open loop at ${options.rates.join(', ')} flows/s`,
  );
  const measured = await runOpenLoopFlowsBenchmark(options, { log });
  log('flows bench stack stopped');
  const figures = (pooled) => {
    const ms = (values) => ({ p50: round(values.p50), p90: round(values.p90), p99: round(values.p99), max: round(values.max) });
    return {
      offered: pooled.offered,
      completed: pooled.completed,
      failed: pooled.failed,
      skipped: pooled.skipped,
      ...(pooled.firstFailure ? { first_failure: pooled.firstFailure } : {}),
      request_ms: ms(pooled.requests),
      flow_ms: ms(pooled.flows),
      steps_ms: Object.fromEntries(measured.stepNames.map((name, index) => [name, ms(pooled.steps[index])])),
      round_request_p99_ms: pooled.roundP99Ms.map((value) => round(value)),
      start_lateness_ms: { p99: round(pooled.startLateness.p99), max: round(pooled.startLateness.max) },
      load_generator_loop_delay_ms: { p99: round(pooled.loopDelayMs.p99), max: round(pooled.loopDelayMs.max) },
      cores_busy: { its_processes: round(pooled.targetCores, 2), other_processes: round(pooled.otherCores, 2) },
    };
  };
  const results = measured.rates.map(({ rate, ours, reference }) => ({
    rate,
    ours: figures(ours),
    reference: reference ? figures(reference) : null,
    p99_ratio: reference ? { request: round(ours.requests.p99 / reference.requests.p99, 2), flow: round(ours.flows.p99 / reference.flows.p99, 2) } : null,
  }));
  const complete = (figures) => figures === null || (figures.failed === 0 && figures.skipped === 0 && figures.completed === figures.offered);
  const valid = results.every((result) => complete(result.ours) && complete(result.reference));
  const judged = results.find((result) => result.rate === targetOpenLoopRatePerSecond && result.p99_ratio !== null);
  const summary = {
    bench: 'flows-open-loop',
    node: process.version,
    cpus: os.cpus().length,
    cpu_model: (os.cpus()[0] || {}).model,
    flow: 'disbursement',
    duration_s: options.durationSeconds,
    warmup_s: options.warmupSeconds,
    rounds: options.rounds,
    users: measured.users,
    rates: options.rates,
    results,
    target: { rate: targetOpenLoopRatePerSecond, request_p99_ratio_max: targetOpenLoopP99Ratio },
    meets_target: judged ? valid && judged.p99_ratio.request <= targetOpenLoopP99Ratio : null,
    valid,
  };
  printOpenLoopTable(summary);
  return summary;
}

function printOpenLoopTable(summary) {
  const row = (cells) => out(cells.map((cell, index) => `${String(cell).padEnd(index === 0 ? 25 : 31)} `).join('').trimEnd());
  const quartet = (values) => (values ? [values.p50, values.p90, values.p99, values.max].map((value) => format(value, 1)).join(' / ') : 'n/a');
  out('');
  out(
    `Flows benchmark, open loop: disbursement flows (quote, transfer) started at a fixed offered rate whatever the answers, latency from each ` +
      `flow's planned start (no coordinated omission); ours through our gateway (HTTPS), the reference's flow through its gateway; ` +
      `${summary.rounds} interleaved rounds (ours, reference) of ${summary.duration_s} s per rate, each after ${summary.warmup_s} s of warm-up ` +
      `(node ${summary.node}, ${summary.cpus} CPUs, ${summary.cpu_model})`,
  );
  for (const result of summary.results) {
    out('');
    row([`${result.rate} flows/s offered`, 'ours p50/p90/p99/max ms', 'reference p50/p90/p99/max ms', 'p99 ours/reference']);
    row(['per request', quartet(result.ours.request_ms), quartet(result.reference?.request_ms), result.p99_ratio ? `${format(result.p99_ratio.request)}x` : 'n/a']);
    row(['per flow', quartet(result.ours.flow_ms), quartet(result.reference?.flow_ms), result.p99_ratio ? `${format(result.p99_ratio.flow)}x` : 'n/a']);
    for (const step of Object.keys(result.ours.steps_ms)) row([`  ${step}`, quartet(result.ours.steps_ms[step]), quartet(result.reference?.steps_ms[step]), '']);
    for (const [name, figures] of [['ours', result.ours], ['reference', result.reference]]) {
      if (!figures) continue;
      out(
        `  ${name}: ${figures.completed} of ${figures.offered} flows completed, ${figures.failed} failed, ${figures.skipped} skipped; ` +
          `request p99 per round ${figures.round_request_p99_ms.map((value) => format(value, 1)).join(', ')} ms; starts late by at most ${format(figures.start_lateness_ms.max, 1)} ms; ` +
          `load generator's event-loop delay p99 ${format(figures.load_generator_loop_delay_ms.p99, 1)} ms; ` +
          `cores busy: its processes ${format(figures.cores_busy.its_processes)}, other processes ${format(figures.cores_busy.other_processes)}` +
          `${figures.cores_busy.other_processes > 0.25 ? ' (the machine was shared: the tail is longer than alone)' : ''}` +
          `${figures.first_failure ? `; first failure: ${figures.first_failure}` : ''}`,
      );
    }
  }
  out('');
  const judged = summary.results.find((result) => result.rate === summary.target.rate);
  out(
    `Target: at ${summary.target.rate} flows/s, our p99 per request at most ${summary.target.request_p99_ratio_max}x the reference's in the same run: ` +
      `${summary.meets_target === null ? `not judged (${judged ? 'no reference' : `${summary.target.rate} flows/s not among the rates`})` : `${summary.meets_target ? 'MET' : 'NOT MET'} (${format(judged.p99_ratio.request)}x)`}` +
      `${summary.valid ? '' : '; INVALID run: some flows failed or could not be started'}.`,
  );
}

async function webhooksBenchmark(options) {
  const before = await referenceRun(options, 'before');
  log(`starting the webhooks bench stack (auth, wallet, quotes, collections, disbursements, webhooks, gateway; sandbox; ${options.users || 64} users) and a receiver`);
  const measured = await runWebhooksBenchmark(options, { log });
  log('webhooks bench stack stopped');
  const after = await referenceRun(options, 'after');
  const reference = referenceSummary([before, after]);
  const { failures } = measured;
  const valid = failures.non2xx === 0 && failures.errors === 0 && failures.unexpected === 0 && measured.mismatches === 0 && measured.unparseable === 0 && measured.pending === 0;
  const summary = {
    bench: 'webhooks',
    node: process.version,
    cpus: os.cpus().length,
    cpu_model: (os.cpus()[0] || {}).model,
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
    reference_flows_per_s: reference ? round(reference.flowsPerSecond, 0) : null,
    reference_runs: reference ? reference.runs : [],
    deliveries_per_reference_flow: reference ? round(measured.deliveriesPerSecond / reference.flowsPerSecond) : null,
  };
  printWebhooksTable(summary);
  return summary;
}

function printWebhooksTable(summary) {
  const row = (cells) => out(cells.map((cell, index) => String(cell).padEnd(index === 0 ? 44 : 14)).join(''));
  out('');
  out(
    `Webhooks benchmark: disbursement flows through the gateway (${summary.connections} connections, ${summary.users} users x 2 currencies, sandbox), ` +
      `each completed transfer a signed webhook to a local receiver; ${summary.rounds} rounds of ${summary.duration_s} s (node ${summary.node}, ${summary.cpus} CPUs, ${summary.cpu_model})`,
  );
  row(['deliveries/s (first arrivals in the rounds)', summary.deliveries_per_s, `runs: ${summary.runs.map((run) => run.deliveries_per_s).join(', ')}`]);
  row(['status changes/s (completed disbursements)', summary.status_changes_per_s, `runs: ${summary.runs.map((run) => run.status_changes_per_s).join(', ')}`]);
  row(['status change -> first attempt p50 ms', format(summary.delay_ms.p50), `(${summary.delay_ms.samples} deliveries)`]);
  row(['status change -> first attempt p99 ms', format(summary.delay_ms.p99), `max ${format(summary.delay_ms.max)}`]);
  row(['backlog when the load stopped', summary.backlog_before_drain, `drained in ${format(summary.drain_s)} s${summary.drain_deliveries_per_s === null ? '' : ` (${summary.drain_deliveries_per_s}/s)`}`]);
  row(['pending after the drain wait', summary.pending_at_end, `of ${summary.events} events`]);
  row(['duplicates (webhook-id seen before)', summary.duplicates, '']);
  row(['signature mismatches', summary.signature_mismatches, '']);
  row(['reference flows/s (same run)', summary.reference_flows_per_s ?? 'n/a', `runs: ${summary.reference_runs.join(', ') || 'n/a'}`]);
  row(['deliveries/s per reference flow/s', summary.deliveries_per_reference_flow ?? 'n/a', '']);
  out(`Cores busy during the rounds: ${Object.entries(summary.cores_busy).sort((a, b) => b[1] - a[1]).map(([name, cores]) => `${name} ${format(cores)}`).join(', ')}`);
  out(`Webhook deliveries by status at the end: ${JSON.stringify(summary.delivery_status_counts)}; webhooks config: ${Object.entries(summary.webhook_config).map(([key, value]) => `${key}=${value}`).join(', ')}`);
  const flowFailures = summary.flow_failures;
  out(
    `Flow non-2xx ${flowFailures.non2xx}, errors ${flowFailures.errors}, unexpected ${flowFailures.unexpected}.` +
      `${summary.valid ? '' : ` INVALID run (pending deliveries, signature mismatches or failed flows${flowFailures.first ? `; first failure: ${flowFailures.first}` : ''}).`}`,
  );
}

async function referenceBenchmark(options) {
  const result = await runReference({ connections: options.connections, durationSeconds: options.durationSeconds });
  out(`Reference flow: ${result.flows_per_s} flows/s, p50 ${result.req_p50_ms} ms, p99 ${result.req_p99_ms} ms (${options.connections} connections, ${options.durationSeconds} s)${referenceIsValid(result) ? '' : ' INVALID'}`);
  return { bench: 'reference', ...result, valid: referenceIsValid(result) };
}

async function main() {
  const options = parseArguments(process.argv.slice(2), process.env);
  const summaries = [];
  // Our benchmarks already run the reference before and after themselves.
  const ownBenchmarks = { gateway: gatewayBenchmark, quote: quoteBenchmark, flows: flowsBenchmark, webhooks: webhooksBenchmark, reference: referenceBenchmark };
  const names = options.names.some((name) => name !== 'reference') ? options.names.filter((name) => name !== 'reference') : options.names;
  for (const name of names) {
    try {
      summaries.push(await ownBenchmarks[name](options));
    } catch (error) {
      // One benchmark failing does not hide the others' figures.
      log(`${name} benchmark failed: ${error.message}`);
      summaries.push({ bench: name, valid: false, error: error.message });
    }
  }
  out('');
  for (const summary of summaries) out(JSON.stringify(summary));
  const failed = summaries.some((summary) => summary.valid === false);
  process.exitCode = failed ? 1 : 0;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // Children share the terminal's process group and get the signal too; exit once they are gone.
    if (interrupted) endProcess(130);
    interrupted = true;
    log(`${signal}: stopping (again to force)`);
    setTimeout(() => endProcess(130), 20_000).unref();
  });
}

main().catch((error) => {
  log(`bench failed: ${error.message}`);
  process.exitCode = 1;
});
