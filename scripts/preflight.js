#!/usr/bin/env node
// The one preflight of npm start, npm test and .ci/run (decision 0043); plain JS, so it runs before
// anything is built or even installed.
//
//   node scripts/preflight.js --for stack|tests [--ci] [--system macos|other]
//
// --for stack  the servers of npm start (DATABASE_URL, AMQP_URL, REDIS_URL or their defaults)
// --for tests  the servers of npm test (TEST_DATABASE_URL, TEST_AMQP_URL, TEST_REDIS_URL, falling
//              back to the variables above, or their defaults)
//              and chromium, which the reference page's browser test drives
// --ci         also the compose client and promtool the deploy tests use (.ci/run)
// --system     judge as on macOS or another system: prints what would be asked there, installs
//              nothing
//
// A server that answers, or whose URL was given in the environment, is used as it is. On Debian or
// Ubuntu as root (or with sudo) a missing server is installed with apt-get and a stopped one started;
// elsewhere the exact commands are printed and the exit status is 1 (2 for a usage or settings error).
'use strict';
const preflight = require('./lib/preflight');

/** Ends this process at once with the given code (scripts/lib/end-process.ts is compiled, and this runs before any build). */
const endProcess = process.exit.bind(process);

const log = (line) => process.stderr.write(`preflight: ${line}\n`);
const usage = 'usage: node scripts/preflight.js --for stack|tests [--ci] [--system macos|other]';

function parseArguments(argv) {
  const options = { mode: undefined, ci: false, system: undefined };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--ci') options.ci = true;
    else if (argument === '--for') options.mode = argv[(index += 1)];
    else if (argument.startsWith('--for=')) options.mode = argument.slice('--for='.length);
    else if (argument === '--system') options.system = argv[(index += 1)];
    else if (argument.startsWith('--system=')) options.system = argument.slice('--system='.length);
    else throw new Error(`unknown argument ${argument}`);
  }
  if (options.mode !== 'stack' && options.mode !== 'tests') throw new Error('--for must be stack or tests');
  if (options.system !== undefined && options.system !== 'macos' && options.system !== 'other') throw new Error('--system must be macos or other');
  return options;
}

async function main() {
  let options;
  let targets;
  try {
    options = parseArguments(process.argv.slice(2));
    targets = preflight.targetsFor(options.mode);
  } catch (error) {
    process.stderr.write(`${error.message}\n${usage}\n`);
    return endProcess(2);
  }

  const detected = preflight.detectSystem();
  const system = options.system ? { ...detected, kind: options.system } : detected;
  const reachable = await Promise.all(targets.map((target) => preflight.canConnect(target.host, target.port)));
  // A local server at its default address that accepts connections is asked its protocol's first question too: a stuck one is restarted (--ci) or named.
  const stuck = await Promise.all(targets.map(async (target, index) => reachable[index] && target.local && !target.explicit && !(await preflight.answersProtocol(target.id, target.host, target.port))));
  const servers = targets.map((target, index) => {
    const isReachable = reachable[index];
    // Whether a server is installed matters only for a local one that does not answer.
    const installed = !isReachable && target.local ? preflight.serverInstalled(target.id, system.kind) : true;
    return { ...target, reachable: isReachable, stuck: stuck[index], installed };
  });
  const tools = preflight.toolsFor(options.mode, options.ci).map((tool) => ({ id: tool.id, installed: preflight.toolInstalled(tool.id) }));
  const plan = preflight.decide({ mode: options.mode, ci: options.ci, ciEnvironment: process.env.CI === 'true', system, servers, tools });

  for (const note of plan.notes) log(note);
  if (!plan.ok) {
    const lines = [`${options.mode === 'tests' ? 'npm test needs PostgreSQL, RabbitMQ, Redis and chromium' : 'npm start needs PostgreSQL, RabbitMQ and Redis'}.`, ...plan.problems, ...preflight.closingLines(options.mode)];
    process.stderr.write(`${lines.join('\n')}\n`);
    return endProcess(1);
  }
  try {
    await preflight.execute(plan);
  } catch (error) {
    if (!(error instanceof preflight.PreflightError)) throw error;
    process.stderr.write(`preflight failed: ${error.message}\n`);
    return endProcess(1);
  }
  const used = plan.servers.filter((server) => server.action !== 'containers').map((server) => `${server.name} ${server.host}:${server.port}`);
  const present = plan.tools.map((tool) => tool.id);
  log(`${used.join(', ')} answering${present.length === 0 ? '' : `; ${present.join(', ')} present`}`);
  return undefined;
}

main().catch((error) => {
  process.stderr.write(`preflight failed: ${error.stack || error.message}\n`);
  endProcess(1);
});
