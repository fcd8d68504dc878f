// Preflight: PostgreSQL, RabbitMQ and Redis (and the tools the tests run: chromium for every test
// run, the compose client and promtool for CI) before npm start, npm test and .ci/run (decision
// 0043). Three parts:
// - facts: is each server reachable, does a local one answer its protocol (stuck when not), is its
//   binary installed, was its URL given in the environment, is its host local; which system this
//   is (Debian/Ubuntu, macOS, other), root, sudo;
// - decide(): a pure function from those facts to a plan (nothing to do, start, install with apt
//   then start, restart a stuck one with --ci, leave to the tests' containers, or refuse with the
//   exact commands to run);
// - execute(): runs a plan (apt-get, the restarts, the start commands, the wait for each port),
//   nothing else.
// A server that answers, or whose URL was given in the environment, is used as it is: the
// preflight never installs, starts or changes it.
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const connectTimeoutMs = 2000;

/**
 * The servers npm start uses when DATABASE_URL, AMQP_URL and REDIS_URL are not set. Kept here,
 * in plain JavaScript, because the preflight runs before the build; the stack's settings
 * (scripts/lib/settings.ts) take them from here.
 */
const defaultServerUrls = Object.freeze({
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/partner_wallet',
  amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
  redisUrl: 'redis://127.0.0.1:6379',
});

/** The server URLs of npm start: from the environment, else the defaults. */
function stackServerUrls(env = process.env) {
  return {
    databaseUrl: env.DATABASE_URL || defaultServerUrls.databaseUrl,
    amqpUrl: env.AMQP_URL || defaultServerUrls.amqpUrl,
    redisUrl: env.REDIS_URL || defaultServerUrls.redisUrl,
  };
}

/** Redacts the password of a server URL before it is printed. */
function displayUrl(raw) {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(invalid URL)';
  }
}

/** Replaced, at execution, by the newest cluster version in /etc/postgresql (after any install). */
const POSTGRES_VERSION = '{postgres-version}';

const servers = [
  {
    id: 'postgres',
    name: 'PostgreSQL',
    variable: 'DATABASE_URL',
    testVariable: 'TEST_DATABASE_URL',
    defaultPort: 5432,
    urlOf: (settings) => settings.databaseUrl,
    binary: 'pg_ctlcluster',
    debianPackage: 'postgresql',
    debianStart: ['pg_ctlcluster', '--skip-systemctl-redirect', POSTGRES_VERSION, 'main', 'start'],
    debianStartText: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | sort -V | tail -n 1) main start',
    otherBinaries: ['postgres', 'pg_ctl'],
    brewFormula: 'postgresql@15',
    // Homebrew's PostgreSQL has no postgres role; the default URLs log in as postgres.
    brewAfter: ['$(brew --prefix postgresql@15)/bin/createuser -s postgres   # once: the role the default URLs use'],
    brewBinaryDirs: ['/opt/homebrew/opt/postgresql@15/bin', '/usr/local/opt/postgresql@15/bin'],
    systemdUnit: 'postgresql',
    // SSLRequest: a PostgreSQL server answers one byte, S or N, before anything else.
    greeting: Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]),
    answered: (bytes) => bytes[0] === 0x53 || bytes[0] === 0x4e,
    // Fast shutdown: a smart one (TERM) waits for every session, which a stuck server may never end.
    stopSignal: 'INT',
  },
  {
    id: 'rabbitmq',
    name: 'RabbitMQ',
    variable: 'AMQP_URL',
    testVariable: 'TEST_AMQP_URL',
    defaultPort: 5672,
    urlOf: (settings) => settings.amqpUrl,
    binary: 'rabbitmq-server',
    debianPackage: 'rabbitmq-server',
    debianStart: ['rabbitmq-server', '-detached'],
    debianStartText: 'rabbitmq-server -detached',
    otherBinaries: ['rabbitmq-server'],
    brewFormula: 'rabbitmq',
    brewAfter: [],
    brewBinaryDirs: ['/opt/homebrew/sbin', '/usr/local/sbin'],
    systemdUnit: 'rabbitmq-server',
    // The AMQP 0-9-1 protocol header: a broker answers Connection.Start (a method frame, type 1), or its own header.
    greeting: Buffer.from('AMQP\x00\x00\x09\x01', 'latin1'),
    answered: (bytes) => bytes[0] === 0x01 || bytes.subarray(0, 4).toString('latin1') === 'AMQP',
    stopSignal: 'TERM',
  },
  {
    id: 'redis',
    name: 'Redis',
    variable: 'REDIS_URL',
    testVariable: 'TEST_REDIS_URL',
    defaultPort: 6379,
    urlOf: (settings) => settings.redisUrl,
    binary: 'redis-server',
    debianPackage: 'redis-server',
    debianStart: ['redis-server', '--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'],
    debianStartText: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
    otherBinaries: ['redis-server'],
    brewFormula: 'redis',
    brewAfter: [],
    brewBinaryDirs: ['/opt/homebrew/bin', '/usr/local/bin'],
    systemdUnit: 'redis',
    // PING: +PONG, or an error (-NOAUTH) from a server that wants a password; either is an answer.
    greeting: Buffer.from('PING\r\n', 'latin1'),
    answered: (bytes) => bytes[0] === 0x2b || bytes[0] === 0x2d,
    stopSignal: 'TERM',
  },
];

/**
 * Tools beside the servers, installed with apt like them. `neededFor: 'ci'` only with --ci (.ci/run:
 * the deploy tests run `docker compose config` and promtool); `neededFor: 'tests'` for every test
 * run, npm test and .ci/run alike (test/e2e/api-reference-page.test.ts opens the reference page in
 * Debian's chromium, at /usr/bin/chromium).
 */
const tools = [
  { id: 'compose', name: 'a compose client (docker compose or docker-compose)', debianPackage: 'docker-compose', brewFormula: 'docker-compose', command: 'docker-compose', neededFor: 'ci' },
  // Debian's prometheus package may start a Prometheus daemon; the tests need none, so one that the
  // install started is stopped again by its pid file.
  { id: 'promtool', name: 'promtool', debianPackage: 'prometheus', brewFormula: 'prometheus', command: 'promtool', stopPidFile: '/run/prometheus/prometheus.pid', neededFor: 'ci' },
  { id: 'chromium', name: "chromium at /usr/bin/chromium (the reference page's browser test)", debianPackage: 'chromium', brewFormula: '--cask chromium', command: '/usr/bin/chromium', neededFor: 'tests' },
  // The Sentinel failover test starts its own redis-server processes (and `redis-server --sentinel`),
  // also when the shared Redis is elsewhere.
  { id: 'redis-server', name: 'redis-server (the Sentinel failover test starts its own)', debianPackage: 'redis-server', brewFormula: 'redis', command: 'redis-server', neededFor: 'tests' },
];

/** The tools a run judges: the CI ones with --ci, the tests' ones for --for tests. */
function toolsFor(mode, ci) {
  return tools.filter((tool) => (tool.neededFor === 'ci' ? ci : mode === 'tests'));
}

class PreflightError extends Error {
  constructor(lines) {
    super(lines.join('\n'));
    this.name = 'PreflightError';
    this.lines = lines;
  }
}

function serverById(id) {
  const server = servers.find((candidate) => candidate.id === id);
  if (!server) throw new Error(`unknown server ${id}`);
  return server;
}

function toolById(id) {
  const tool = tools.find((candidate) => candidate.id === id);
  if (!tool) throw new Error(`unknown tool ${id}`);
  return tool;
}

/** Resolves true when a TCP connection to host:port opens within the timeout. */
function canConnect(host, port, timeoutMs = connectTimeoutMs) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const finish = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/**
 * The Erlang that `rabbitmqctl eval` runs to delete the queues test runs leave behind (stacks'
 * `pwa.e2e.<run>.…`, harnesses' `pwa.<schema>-it.<run>.…`, the drills' and `test.…`; a killed run
 * skips its teardown). Each durable queue keeps a share of the broker's file handles (927 under
 * Debian's default limit), and once they are spent the broker accepts TCP connections but answers
 * none, so they are deleted over the CLI's own channel, which needs none. Prints how many.
 */
const leftoverTestQueuesEval = [
  'Pattern = "^(pwa\\\\.e2e\\\\.|pwa\\\\.[a-z0-9-]+-it\\\\.|pwa\\\\.gateway-outage\\\\.|test\\\\.)",',
  'Queues = [Q || Q <- rabbit_amqqueue:list(), re:run(element(4, amqqueue:get_name(Q)), Pattern) =/= nomatch],',
  '[rabbit_amqqueue:delete(Q, false, false, <<"pwa-test-cleanup">>) || Q <- Queues],',
  'length(Queues).',
].join(' ');

/** How long a server that accepted the connection has to answer its protocol's first message. */
const answerTimeoutMs = 5000;

/**
 * Resolves true when the server at host:port answers its protocol's first message (PostgreSQL's
 * SSLRequest, AMQP's protocol header, Redis's PING) within the timeout. A server that accepts TCP
 * connections but never answers is stuck (a wedged broker does exactly that): every test would
 * wait for it until its timeout, so the preflight finds it first.
 */
function answersProtocol(id, host, port, timeoutMs = answerTimeoutMs) {
  const server = serverById(id);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let received = Buffer.alloc(0);
    const finish = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => socket.write(server.greeting));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 4 || server.answered(received)) finish(server.answered(received));
    });
    socket.once('error', () => finish(false));
    socket.once('end', () => finish(server.answered(received)));
  });
}

function addressOf(rawUrl, defaultPort) {
  const url = new URL(rawUrl);
  // URL keeps IPv6 hosts in brackets; net.connect wants them bare.
  const host = (url.hostname || '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(url.port) || defaultPort };
}

function isLocal(host) {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}

/**
 * The servers a mode uses (from process.env), with the variable that names each one and whether it
 * was given. stack: DATABASE_URL, AMQP_URL, REDIS_URL (defaultServerUrls above);
 * tests: TEST_* first, then the stack's variable (test/support/server-urls.js and its defaults).
 */
function targetsFor(mode) {
  const env = process.env;
  if (mode === 'stack') {
    const settings = stackServerUrls(env);
    return servers.map((server) => targetOf(server, server.urlOf(settings), env[server.variable] ? server.variable : undefined, server.variable));
  }
  if (mode === 'tests') {
    const urls = require('../../test/support/server-urls').serverUrls();
    const byId = { postgres: urls.postgres, rabbitmq: urls.amqp, redis: urls.redis };
    return servers.map((server) => {
      const given = [server.testVariable, server.variable].find((variable) => Boolean(env[variable]));
      return targetOf(server, byId[server.id], given, server.testVariable);
    });
  }
  throw new Error(`unknown preflight mode ${mode}`);
}

function targetOf(server, rawUrl, givenVariable, defaultVariable) {
  let address;
  try {
    address = addressOf(rawUrl, server.defaultPort);
  } catch {
    throw new PreflightError([`${givenVariable ?? defaultVariable} is not a valid URL`]);
  }
  return {
    id: server.id,
    name: server.name,
    host: address.host,
    port: address.port,
    url: displayUrl(rawUrl),
    variable: givenVariable ?? defaultVariable,
    explicit: givenVariable !== undefined,
    local: isLocal(address.host),
  };
}

/** Checks every server; returns one entry per server with its address and whether it answered. */
async function checkServers(settings, env = process.env) {
  return Promise.all(
    servers.map(async (server) => {
      const rawUrl = server.urlOf(settings);
      const { host, port } = addressOf(rawUrl, server.defaultPort);
      const reachable = await canConnect(host, port);
      const explicit = Boolean(env[server.variable]);
      return { ...server, host, port, url: displayUrl(rawUrl), reachable, explicit, local: isLocal(host) };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The system

/** Is `name` an executable on PATH (or in the sbin directories a non-root PATH often lacks), or, given as an absolute path, that file? */
function commandExists(name, extraDirs = [], env = process.env) {
  const isExecutableFile = (file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (path.isAbsolute(name)) return isExecutableFile(name);
  const dirs = [...(env.PATH || '').split(path.delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin', ...extraDirs];
  return dirs.some((dir) => Boolean(dir) && isExecutableFile(path.join(dir, name)));
}

function readOsRelease(file = '/etc/os-release') {
  try {
    const fields = {};
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
      if (match) fields[match[1]] = match[2].replace(/^["']|["']$/g, '');
    }
    return fields;
  } catch {
    return {};
  }
}

/** debian (Debian, Ubuntu and their derivatives: apt is there), macos or other. */
function systemKind(platform = process.platform, osRelease = readOsRelease()) {
  if (platform === 'darwin') return 'macos';
  if (platform !== 'linux') return 'other';
  const ids = [osRelease.ID, ...(osRelease.ID_LIKE || '').split(/\s+/)].filter(Boolean).map((id) => id.toLowerCase());
  return ids.some((id) => id === 'debian' || id === 'ubuntu') ? 'debian' : 'other';
}

function detectSystem(env = process.env) {
  return {
    kind: systemKind(),
    root: typeof process.getuid === 'function' && process.getuid() === 0,
    sudo: commandExists('sudo', [], env),
    dockerEngine: Boolean(env.DOCKER_HOST) || fs.existsSync('/var/run/docker.sock'),
  };
}

function postgresVersions() {
  try {
    return fs.readdirSync('/etc/postgresql').filter((entry) => /^\d/.test(entry));
  } catch {
    return [];
  }
}

/** The newest cluster version in /etc/postgresql (as `sort -V | tail -n 1`), or undefined. */
function latestPostgresVersion() {
  const versions = postgresVersions().sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return versions[versions.length - 1];
}

/** Is the server's software on this machine (on Debian: what .ci/run checked)? */
function serverInstalled(id, kind, env = process.env) {
  const server = serverById(id);
  if (kind === 'debian') {
    if (id === 'postgres') return commandExists('pg_ctlcluster', [], env) && postgresVersions().length > 0;
    return commandExists(server.binary, [], env);
  }
  return server.otherBinaries.some((binary) => commandExists(binary, kind === 'macos' ? server.brewBinaryDirs : [], env));
}

function toolInstalled(id, env = process.env) {
  if (id === 'compose') {
    const plugin = spawnSync('docker', ['compose', 'version'], { stdio: 'ignore', timeout: 20_000 });
    return plugin.status === 0 || commandExists('docker-compose', [], env);
  }
  return commandExists(toolById(id).command, [], env);
}

// ---------------------------------------------------------------------------------------------
// The decision (pure)

const indent = '    ';

function aptLine(packages) {
  return `apt-get update && apt-get install -y ${packages.join(' ')}`;
}

function brewLines(server, installed) {
  const lines = installed ? [`brew services start ${server.brewFormula}`] : [`brew install ${server.brewFormula} && brew services start ${server.brewFormula}`];
  return [...lines, ...server.brewAfter];
}

/** What to run, by hand, on a system where the preflight does not install or start servers. */
function serverCommands(server, installed, system) {
  if (system.kind === 'debian') {
    return ['As root:', ...(installed ? [] : [aptLine([server.debianPackage])]).map((line) => indent + line), indent + server.debianStartText];
  }
  if (system.kind === 'macos') return ['With Homebrew:', ...brewLines(server, installed).map((line) => indent + line)];
  if (installed) {
    return [`It is installed: start it with this system's service manager, for example:`, `${indent}sudo systemctl start ${server.systemdUnit}`];
  }
  return [
    `Install and start it with this system's packages; on Debian or Ubuntu, as root:`,
    `${indent}${aptLine([server.debianPackage])} && ${server.debianStartText}`,
    'With Homebrew:',
    ...brewLines(server, false).map((line) => indent + line),
  ];
}

function toolCommands(tool, system) {
  if (system.kind === 'debian') return [`As root:`, `${indent}${aptLine([tool.debianPackage])}`];
  if (system.kind === 'macos') return ['With Homebrew:', `${indent}brew install ${tool.brewFormula}`];
  return [`Install it with this system's packages; on Debian or Ubuntu, as root:`, `${indent}${aptLine([tool.debianPackage])}`, 'With Homebrew:', `${indent}brew install ${tool.brewFormula}`];
}

function why(system) {
  if (system.kind === 'debian') return 'this user is not root and sudo is not installed, so the preflight cannot install or start it';
  return 'the preflight installs and starts servers only on Debian or Ubuntu';
}

/**
 * The plan for one run, from facts only (no I/O).
 *
 * facts: {
 *   mode: 'stack' | 'tests', ci: boolean (--ci: also the CI tools), ciEnvironment: boolean (CI=true),
 *   system: { kind: 'debian' | 'macos' | 'other', root, sudo, dockerEngine },
 *   servers: [{ id, host, port, url (displayable), variable, explicit, local, reachable, installed }],
 *   tools: [{ id, installed }] (those of toolsFor(mode, ci); any other is not judged),
 * }
 * (servers[].stuck: it accepts connections but does not answer its protocol: 'restart' with --ci on
 * Debian as root or with sudo, else 'refuse'.)
 * Each server's action: 'none' (it answers), 'start' (installed, stopped), 'install' (apt, then
 * start), 'containers' (tests with a Docker engine: the integration set-up starts one), 'error' (a
 * URL from the environment, or another host, that does not answer) or 'refuse' (this system or
 * user cannot: `problems` holds the commands). A plan with problems is not executed at all.
 */
function decide(facts) {
  const { mode, ci = false, ciEnvironment = false, system } = facts;
  const canInstall = system.kind === 'debian' && (system.root || system.sudo);
  const rootPrefix = system.root ? [] : ['sudo'];
  const problems = [];
  const notes = [];
  const aptPackages = [];

  const serverPlans = facts.servers.map((fact) => {
    const server = serverById(fact.id);
    const base = { id: fact.id, name: server.name, host: fact.host, port: fact.port };
    const where = `${fact.host}:${fact.port}`;
    if (fact.reachable && fact.stuck) return stuckServerPlan(server, fact, base, { canRestart: canInstall && ci, rootPrefix, problems, system });
    if (fact.reachable) return { ...base, action: 'none' };
    if (fact.explicit || !fact.local) {
      problems.push(`${server.name} is not reachable at ${where} (${fact.variable}=${fact.url}).`);
      if (fact.explicit) {
        problems.push(`  ${fact.variable} was given in the environment, so the preflight uses it as it is and installs or starts nothing for it.`);
        if (canInstall) {
          problems.push(`  Start that server, or unset ${fact.variable} to use ${server.name} on this machine at its default port (installed and started by the preflight when needed).`);
        } else {
          problems.push(`  Start that server, or unset ${fact.variable} to use ${server.name} on this machine at its default port.`);
          if (fact.local) problems.push(...serverCommands(server, fact.installed, system).map((line) => `  ${line}`));
        }
      } else {
        problems.push(`  Start that server, or point ${fact.variable} at one that is running.`);
      }
      return { ...base, action: 'error' };
    }
    if (canInstall) {
      const packages = fact.installed ? [] : [server.debianPackage];
      aptPackages.push(...packages);
      return { ...base, action: fact.installed ? 'start' : 'install', packages, start: [...rootPrefix, ...server.debianStart] };
    }
    if (mode === 'tests' && system.dockerEngine) {
      notes.push(`${server.name} is not running at ${where}; the integration tests' set-up starts it in a container (a Docker engine is available).`);
      return { ...base, action: 'containers' };
    }
    const state = fact.installed ? 'is installed but not running' : 'is not installed';
    problems.push(`${server.name} ${state} (nothing answers at ${where}); ${why(system)}.`);
    problems.push(...serverCommands(server, fact.installed, system).map((line) => `  ${line}`));
    return { ...base, action: 'refuse' };
  });

  const judged = new Set(toolsFor(mode, ci).map((tool) => tool.id));
  const toolPlans = (facts.tools || []).filter((fact) => judged.has(fact.id)).map((fact) => {
    const tool = toolById(fact.id);
    if (fact.installed) return { id: fact.id, name: tool.name, action: 'none' };
    if (canInstall) {
      aptPackages.push(tool.debianPackage);
      return { id: fact.id, name: tool.name, action: 'install', packages: [tool.debianPackage], command: tool.command, stop: tool.stopPidFile ? { pidFile: tool.stopPidFile, kill: [...rootPrefix, 'kill'] } : undefined };
    }
    problems.push(`${tool.name} is not installed; ${why(system)}.`);
    problems.push(...toolCommands(tool, system).map((line) => `  ${line}`));
    return { id: fact.id, name: tool.name, action: 'refuse' };
  });

  const apt =
    aptPackages.length === 0
      ? undefined
      : {
          packages: aptPackages,
          commands: [
            [...rootPrefix, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'update', '-qq'],
            [...rootPrefix, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...aptPackages],
          ],
        };

  // The tests (and the stack's default URL) log in as postgres over TCP without a password; Debian's
  // pg_hba.conf asks for one on loopback. Checked after a start, and always in CI, for the local
  // default server only; switched to trust on loopback only on a CI machine (CI=true) or when this
  // run installed PostgreSQL, as .ci/run did.
  const postgresFact = facts.servers.find((fact) => fact.id === 'postgres');
  const postgresPlan = serverPlans.find((plan) => plan.id === 'postgres');
  let postgresLogin;
  if (system.kind === 'debian' && postgresFact && postgresPlan && !postgresFact.explicit && postgresFact.local && (postgresPlan.action === 'start' || postgresPlan.action === 'install' || (ci && postgresPlan.action === 'none'))) {
    const trustFix = canInstall && (postgresPlan.action === 'install' || ciEnvironment);
    postgresLogin = {
      host: postgresFact.host,
      port: postgresFact.port,
      variable: postgresFact.variable,
      trustFix: trustFix
        ? {
            hbaFile: `/etc/postgresql/${POSTGRES_VERSION}/main/pg_hba.conf`,
            commands: [
              [...rootPrefix, 'sed', '-i', '-E', 's/^(host[[:space:]]+all[[:space:]]+all[[:space:]]+(127\\.0\\.0\\.1\\/32|::1\\/128)[[:space:]]+).*/\\1trust/', `/etc/postgresql/${POSTGRES_VERSION}/main/pg_hba.conf`],
              [...rootPrefix, 'pg_ctlcluster', '--skip-systemctl-redirect', POSTGRES_VERSION, 'main', 'reload'],
            ],
          }
        : undefined,
    };
  }

  // .ci/run on a machine the preflight manages: the queues earlier test runs left on the local broker go first.
  const rabbitFact = facts.servers.find((fact) => fact.id === 'rabbitmq');
  const rabbitCleanup = ci && canInstall && rabbitFact !== undefined && rabbitFact.local && !rabbitFact.explicit && rabbitFact.reachable ? { command: [...rootPrefix, 'rabbitmqctl', '-q', 'eval', leftoverTestQueuesEval] } : undefined;

  return { mode, ok: problems.length === 0, servers: serverPlans, tools: toolPlans, apt, postgresLogin, rabbitCleanup, problems, notes };
}

/**
 * A local server at its default address that accepts connections but does not answer its protocol.
 * .ci/run (--ci) on Debian as root or with sudo restarts it: the process listening on its port is
 * stopped (by pid, found with ss) and the server started again as when it was stopped. Elsewhere,
 * npm start and npm test refuse with the commands: they never stop a server a person may be using.
 */
function stuckServerPlan(server, fact, base, { canRestart, rootPrefix, problems, system }) {
  const where = `${fact.host}:${fact.port}`;
  if (canRestart) {
    return {
      ...base,
      action: 'restart',
      restart: { stop: [...rootPrefix, 'kill', `-${server.stopSignal}`], kill: [...rootPrefix, 'kill', '-KILL'], start: [...rootPrefix, ...server.debianStart] },
    };
  }
  problems.push(`${server.name} accepts connections at ${where} but does not answer within ${answerTimeoutMs / 1000}s: it is stuck, and every test would wait for it.`);
  if (system.kind === 'debian') {
    problems.push(`  Restart it, as root: stop the process listening on port ${fact.port} (ss -ltnp 'sport = :${fact.port}' shows its pid), then`, `${indent}${server.debianStartText}`);
  } else if (system.kind === 'macos') {
    problems.push('  Restart it, with Homebrew:', `${indent}brew services restart ${server.brewFormula}`);
  } else {
    problems.push(`  Restart it with this system's service manager, for example:`, `${indent}sudo systemctl restart ${server.systemdUnit}`);
  }
  return { ...base, action: 'refuse' };
}

/** The lines a refused plan prints after its problems: the way out and what to run next. */
function closingLines(mode) {
  const variables = mode === 'tests' ? 'TEST_DATABASE_URL, TEST_AMQP_URL and TEST_REDIS_URL' : 'DATABASE_URL, AMQP_URL and REDIS_URL';
  const again = mode === 'tests' ? 'npm test' : 'npm start';
  return [`Or point ${variables} at running servers (README.md, "Running against other servers"). Then run ${again} again.`];
}

/**
 * For scripts that check the servers themselves (start.js, the benchmarks): the lines naming the
 * servers that did not answer, with what the preflight would do or the commands to run.
 */
function describeUnreachable(results, system = detectSystem()) {
  const unreachable = results.filter((result) => !result.reachable);
  if (unreachable.length === 0) return [];
  const plan = decide({
    mode: 'stack',
    system,
    servers: unreachable.map((result) => ({
      id: result.id,
      host: result.host,
      port: result.port,
      url: result.url,
      variable: result.variable,
      explicit: Boolean(result.explicit),
      local: isLocal(result.host),
      reachable: false,
      installed: serverInstalled(result.id, system.kind),
    })),
  });
  const lines = [...plan.problems];
  for (const server of plan.servers.filter((entry) => entry.action === 'start' || entry.action === 'install')) {
    lines.push(`${server.name} is not reachable at ${server.host}:${server.port}; node scripts/preflight.js (run by npm start) ${server.action === 'start' ? 'starts' : 'installs and starts'} it.`);
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// The executor

function runInherited(argv) {
  const result = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit' });
  if (result.error) throw new PreflightError([`could not run ${argv.join(' ')}: ${result.error.message}`]);
  return result.status ?? 1;
}

function psqlCanLogIn(host, port) {
  const result = spawnSync('psql', ['-X', '-q', '-w', '-h', host, '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-c', 'SELECT 1'], { stdio: 'ignore' });
  return result.status === 0;
}

function readPid(file) {
  try {
    const pid = fs.readFileSync(file, 'utf8').trim();
    return /^\d+$/.test(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a stuck server's process has to end after a signal. */
const stopWaitSeconds = 30;

/** The pid of the process listening on a local TCP port (ss, from iproute2), or undefined. */
function listenerPid(port) {
  const result = spawnSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
  const found = /pid=(\d+)/.exec(result.stdout || '');
  return found ? found[1] : undefined;
}

/** Whether a process is still there (signal 0 tests without sending anything). */
function processAlive(pid) {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Whether the process has ended within the given seconds. */
async function goneWithin(d, pid, seconds) {
  for (let waited = 0; waited < seconds; waited += 1) {
    if (!d.alive(pid)) return true;
    await d.sleep(1000);
  }
  return !d.alive(pid);
}

function waitSecondsFrom(env = process.env) {
  const value = Number(env.CI_SERVER_WAIT_SECONDS || 90);
  return Number.isFinite(value) && value > 0 ? value : 90;
}

/**
 * Runs a plan without problems. Everything it touches goes through `deps` (tests pass their own):
 * run(argv) -> exit status, probe(host, port) -> Promise<boolean>, sleep(ms), log(line),
 * waitSeconds, postgresVersion(), commandExists(name), psqlAvailable(), canLogIn(host, port), readPid(file).
 * Returns the commands it ran.
 */
async function execute(plan, deps = {}) {
  const d = {
    run: runInherited,
    probe: (host, port) => canConnect(host, port),
    sleep,
    log: (line) => process.stderr.write(`preflight: ${line}\n`),
    waitSeconds: waitSecondsFrom(),
    postgresVersion: latestPostgresVersion,
    commandExists: (name) => commandExists(name),
    psqlAvailable: () => commandExists('psql'),
    canLogIn: psqlCanLogIn,
    readPid,
    listenerPid,
    alive: processAlive,
    answers: (id, host, port) => answersProtocol(id, host, port),
    ...deps,
  };
  if (plan.problems.length > 0) throw new PreflightError(plan.problems);
  const ran = [];
  const resolve = (argv) =>
    argv.map((arg) => {
      if (!arg.includes(POSTGRES_VERSION)) return arg;
      const version = d.postgresVersion();
      if (!version) throw new PreflightError(['no PostgreSQL cluster in /etc/postgresql']);
      return arg.split(POSTGRES_VERSION).join(version);
    });
  // What is printed reads as a shell command: an empty argument shows as "".
  const shellText = (argv) => argv.map((arg) => (arg === '' ? '""' : arg)).join(' ');
  const run = (argv) => {
    const resolved = resolve(argv);
    d.log(shellText(resolved));
    ran.push(resolved);
    const status = d.run(resolved);
    if (status !== 0) throw new PreflightError([`${shellText(resolved)} failed (exit status ${status})`]);
  };
  const waitFor = async (name, host, port) => {
    for (let waited = 0; !(await d.probe(host, port)); waited += 1) {
      if (waited >= d.waitSeconds) throw new PreflightError([`${name} did not accept connections on ${host}:${port} within ${d.waitSeconds}s`]);
      await d.sleep(1000);
    }
    d.log(`${name} is accepting connections on ${host}:${port}`);
  };

  if (plan.apt) for (const command of plan.apt.commands) run(command);

  if (plan.rabbitCleanup) {
    d.log('deleting the queues earlier test runs left on RabbitMQ (rabbitmqctl eval)');
    ran.push(plan.rabbitCleanup.command);
    // Best effort: a broker whose CLI does not answer either is restarted below if it is stuck.
    if (d.run(plan.rabbitCleanup.command) !== 0) d.log('rabbitmqctl eval failed: no queue was deleted');
  }

  for (const server of plan.servers) {
    if (server.action !== 'restart') continue;
    if (await d.answers(server.id, server.host, server.port)) {
      d.log(`${server.name} answers again on ${server.host}:${server.port}: no restart`);
      continue;
    }
    const pid = d.listenerPid(server.port);
    if (!pid) throw new PreflightError([`${server.name} does not answer on ${server.host}:${server.port}, and no process listening on port ${server.port} was found (ss -ltnp) to restart`]);
    d.log(`${server.name} accepts connections on ${server.host}:${server.port} but does not answer: restarting it (pid ${pid})`);
    run([...server.restart.stop, pid]);
    // Gone, not just closed: a stuck broker closes its listener at once and then hangs in its shutdown, and
    // a second node of the same name cannot start while the first one lives.
    if (!(await goneWithin(d, pid, stopWaitSeconds))) {
      run([...server.restart.kill, pid]);
      if (!(await goneWithin(d, pid, stopWaitSeconds))) throw new PreflightError([`${server.name} (pid ${pid}) still runs after kill -KILL`]);
    }
    run(server.restart.start);
    await waitFor(server.name, server.host, server.port);
    // Listening comes a moment before answering while a server boots: ask again for as long as a start may take.
    for (let waited = 0; !(await d.answers(server.id, server.host, server.port)); waited += 1) {
      if (waited >= d.waitSeconds) throw new PreflightError([`${server.name} was restarted but still does not answer on ${server.host}:${server.port}`]);
      await d.sleep(1000);
    }
  }

  for (const server of plan.servers) {
    if (server.action !== 'start' && server.action !== 'install') continue;
    // A package's init script may or may not have started its daemon (no systemd in a container).
    if (!(await d.probe(server.host, server.port))) {
      d.log(`starting ${server.name}`);
      run(server.start);
    }
    await waitFor(server.name, server.host, server.port);
  }

  if (plan.postgresLogin) {
    const { host, port, variable, trustFix } = plan.postgresLogin;
    if (!d.psqlAvailable()) {
      d.log('psql is not installed: not checking that PostgreSQL lets postgres log in without a password');
    } else if (!d.canLogIn(host, port)) {
      if (!trustFix) {
        throw new PreflightError([`cannot log in to PostgreSQL as postgres on ${host}:${port} without a password; set ${variable} (with a password) or allow trust on loopback in pg_hba.conf`]);
      }
      d.log(`allowing password-less loopback connections in ${resolve([trustFix.hbaFile])[0]}`);
      for (const command of trustFix.commands) run(command);
      await d.sleep(1000);
      if (!d.canLogIn(host, port)) throw new PreflightError([`still cannot log in to PostgreSQL as postgres on ${host}:${port}`]);
    }
  }

  for (const tool of plan.tools) {
    if (tool.action !== 'install') continue;
    if (tool.stop) {
      const pid = d.readPid(tool.stop.pidFile);
      if (pid) {
        d.log(`stopping the daemon the ${tool.packages.join(' ')} package started (pid ${pid})`);
        ran.push([...tool.stop.kill, pid]);
        d.run([...tool.stop.kill, pid]); // it may have gone already
      }
    }
    if (!d.commandExists(tool.command)) {
      throw new PreflightError([`${tool.command} is still missing after installing ${tool.packages.join(' ')}`]);
    }
  }
  return { ran };
}

module.exports = {
  defaultServerUrls,
  stackServerUrls,
  displayUrl,
  servers,
  tools,
  toolsFor,
  POSTGRES_VERSION,
  PreflightError,
  canConnect,
  answersProtocol,
  listenerPid,
  leftoverTestQueuesEval,
  checkServers,
  describeUnreachable,
  targetsFor,
  isLocal,
  commandExists,
  systemKind,
  readOsRelease,
  detectSystem,
  serverInstalled,
  toolInstalled,
  latestPostgresVersion,
  decide,
  closingLines,
  execute,
  waitSecondsFrom,
};
