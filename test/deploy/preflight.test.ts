// The preflight of npm start, npm test and .ci/run (scripts/preflight.js, decision 0043): its pure
// decisions for every state of every server on every kind of system, its executor with fake
// commands, and the CLI against closed ports. Nothing here installs, starts or stops a server: the
// executor runs with recording stand-ins, and the CLI only ever sees URLs given in the environment
// (which it never touches) or a system it does not install on.
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const preflight = require(path.join(repoRoot, 'scripts', 'lib', 'preflight.js'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../support/server-urls') as { serverUrls: () => { postgres: string; amqp: string; redis: string } };

type ServerId = 'postgres' | 'rabbitmq' | 'redis';
type State = 'running' | 'installed but stopped' | 'missing';

const aptEnv = ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get'];

const expected: Record<ServerId, { port: number; variable: string; testVariable: string; package: string; start: string[]; startText: string; brewInstall: string; brewStart: string }> = {
  postgres: {
    port: 5432,
    variable: 'DATABASE_URL',
    testVariable: 'TEST_DATABASE_URL',
    package: 'postgresql',
    start: ['pg_ctlcluster', '--skip-systemctl-redirect', '{postgres-version}', 'main', 'start'],
    startText: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | sort -V | tail -n 1) main start',
    brewInstall: 'brew install postgresql@15 && brew services start postgresql@15',
    brewStart: 'brew services start postgresql@15',
  },
  rabbitmq: {
    port: 5672,
    variable: 'AMQP_URL',
    testVariable: 'TEST_AMQP_URL',
    package: 'rabbitmq-server',
    start: ['rabbitmq-server', '-detached'],
    startText: 'rabbitmq-server -detached',
    brewInstall: 'brew install rabbitmq && brew services start rabbitmq',
    brewStart: 'brew services start rabbitmq',
  },
  redis: {
    port: 6379,
    variable: 'REDIS_URL',
    testVariable: 'TEST_REDIS_URL',
    package: 'redis-server',
    start: ['redis-server', '--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'],
    startText: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
    brewInstall: 'brew install redis && brew services start redis',
    brewStart: 'brew services start redis',
  },
};

const systems = {
  'Debian as root': { kind: 'debian', root: true, sudo: false, dockerEngine: false },
  'Debian with sudo': { kind: 'debian', root: false, sudo: true, dockerEngine: false },
  'Debian without root or sudo': { kind: 'debian', root: false, sudo: false, dockerEngine: false },
  macOS: { kind: 'macos', root: false, sudo: true, dockerEngine: false },
} as const;
type SystemName = keyof typeof systems;

const serverIds: ServerId[] = ['postgres', 'rabbitmq', 'redis'];
const states: State[] = ['running', 'installed but stopped', 'missing'];

function fact(id: ServerId, state: State, overrides: Record<string, unknown> = {}) {
  return {
    id,
    host: '127.0.0.1',
    port: expected[id].port,
    url: `scheme://127.0.0.1:${expected[id].port}`,
    variable: expected[id].variable,
    explicit: false,
    local: true,
    reachable: state === 'running',
    installed: state !== 'missing',
    ...overrides,
  };
}

/** One server in the given state, the other two running. */
function factsWith(id: ServerId, state: State, overrides: Record<string, unknown> = {}) {
  return serverIds.map((other) => (other === id ? fact(other, state, overrides) : fact(other, 'running')));
}

function decide(system: SystemName | Record<string, unknown>, servers: unknown[], extra: Record<string, unknown> = {}) {
  return preflight.decide({ mode: 'stack', system: typeof system === 'string' ? systems[system] : system, servers, ...extra });
}

function planFor(plan: any, id: ServerId) {
  return plan.servers.find((server: any) => server.id === id);
}

describe('preflight decisions: each server in each state on each system', () => {
  const matrix = serverIds.flatMap((id) => states.flatMap((state) => (Object.keys(systems) as SystemName[]).map((system) => [id, state, system] as const)));

  test.each(matrix)('%s %s, %s', (id, state, system) => {
    const plan = decide(system, factsWith(id, state));
    const server = planFor(plan, id);
    const want = expected[id];
    const text = plan.problems.join('\n');
    for (const other of serverIds.filter((candidate) => candidate !== id)) expect(planFor(plan, other).action).toBe('none');

    if (state === 'running') {
      expect(server.action).toBe('none');
      expect(plan.ok).toBe(true);
      expect(plan.problems).toEqual([]);
      expect(plan.apt).toBeUndefined();
      return;
    }
    const prefix = system === 'Debian with sudo' ? ['sudo'] : [];
    switch (system) {
      case 'Debian as root':
      case 'Debian with sudo':
        expect(plan.ok).toBe(true);
        expect(plan.problems).toEqual([]);
        expect(server.start).toEqual([...prefix, ...want.start]);
        if (state === 'missing') {
          expect(server.action).toBe('install');
          expect(plan.apt.commands).toEqual([
            [...prefix, ...aptEnv, 'update', '-qq'],
            [...prefix, ...aptEnv, 'install', '-y', '-qq', '--no-install-recommends', want.package],
          ]);
        } else {
          expect(server.action).toBe('start');
          expect(plan.apt).toBeUndefined();
        }
        break;
      case 'Debian without root or sudo':
        expect(server.action).toBe('refuse');
        expect(plan.ok).toBe(false);
        expect(plan.apt).toBeUndefined();
        expect(text).toContain('not root and sudo is not installed');
        expect(text).toContain('As root:');
        expect(plan.problems).toContain(`      ${want.startText}`);
        if (state === 'missing') {
          expect(text).toContain(`apt-get update && apt-get install -y ${want.package}`);
          expect(text).toContain('is not installed');
        } else {
          expect(text).not.toContain('apt-get');
          expect(text).toContain('is installed but not running');
        }
        break;
      case 'macOS':
        expect(server.action).toBe('refuse');
        expect(plan.ok).toBe(false);
        expect(plan.apt).toBeUndefined();
        expect(text).toContain('With Homebrew:');
        expect(text).not.toContain('apt-get');
        expect(plan.problems).toContain(`      ${state === 'missing' ? want.brewInstall : want.brewStart}`);
        if (state !== 'missing') expect(text).not.toContain('brew install');
        break;
    }
  });

  test('everything missing on Debian as root: one apt-get update, one install of the three packages, three starts', () => {
    const plan = decide('Debian as root', serverIds.map((id) => fact(id, 'missing')));
    expect(plan.ok).toBe(true);
    expect(plan.servers.map((server: any) => server.action)).toEqual(['install', 'install', 'install']);
    expect(plan.apt.commands).toEqual([
      [...aptEnv, 'update', '-qq'],
      [...aptEnv, 'install', '-y', '-qq', '--no-install-recommends', 'postgresql', 'rabbitmq-server', 'redis-server'],
    ]);
    expect(plan.servers.map((server: any) => server.start)).toEqual([expected.postgres.start, expected.rabbitmq.start, expected.redis.start]);
  });

  test('another system (not Debian, Ubuntu or macOS) gets both the apt and the Homebrew commands, or its service manager', () => {
    const other = { kind: 'other', root: true, sudo: true, dockerEngine: false };
    const missing = decide(other, factsWith('redis', 'missing'));
    expect(planFor(missing, 'redis').action).toBe('refuse');
    expect(missing.apt).toBeUndefined();
    expect(missing.problems).toContain(`      apt-get update && apt-get install -y redis-server && ${expected.redis.startText}`);
    expect(missing.problems).toContain(`      ${expected.redis.brewInstall}`);
    const stopped = decide(other, factsWith('rabbitmq', 'installed but stopped'));
    expect(planFor(stopped, 'rabbitmq').action).toBe('refuse');
    expect(stopped.problems).toContain('      sudo systemctl start rabbitmq-server');
  });

  test('Ubuntu and Debian derivatives count as Debian; macOS by its platform; the rest as other', () => {
    expect(preflight.systemKind('linux', { ID: 'debian' })).toBe('debian');
    expect(preflight.systemKind('linux', { ID: 'ubuntu', ID_LIKE: 'debian' })).toBe('debian');
    expect(preflight.systemKind('linux', { ID: 'linuxmint', ID_LIKE: 'ubuntu debian' })).toBe('debian');
    expect(preflight.systemKind('linux', { ID: 'fedora' })).toBe('other');
    expect(preflight.systemKind('linux', { ID: 'alpine' })).toBe('other');
    expect(preflight.systemKind('linux', {})).toBe('other');
    expect(preflight.systemKind('darwin', {})).toBe('macos');
    expect(preflight.systemKind('win32', {})).toBe('other');
  });
});

describe('preflight decisions: URLs from the environment and other hosts are used as they are', () => {
  test.each(Object.keys(systems) as SystemName[])('an unreachable URL from the environment is an error naming the variable, never installed or started (%s)', (system) => {
    for (const state of ['installed but stopped', 'missing'] as State[]) {
      const plan = decide(system, factsWith('rabbitmq', state, { explicit: true, port: 5999, url: 'amqp://guest:***@127.0.0.1:5999' }));
      expect(planFor(plan, 'rabbitmq').action).toBe('error');
      expect(planFor(plan, 'rabbitmq').start).toBeUndefined();
      expect(plan.ok).toBe(false);
      expect(plan.apt).toBeUndefined();
      expect(plan.problems[0]).toBe('RabbitMQ is not reachable at 127.0.0.1:5999 (AMQP_URL=amqp://guest:***@127.0.0.1:5999).');
      expect(plan.problems.join('\n')).toContain('AMQP_URL was given in the environment');
    }
  });

  test('an unreachable URL from the environment on another host gets no local commands', () => {
    const plan = decide('macOS', factsWith('redis', 'missing', { explicit: true, local: false, host: 'cache.internal', port: 6380 }));
    expect(planFor(plan, 'redis').action).toBe('error');
    expect(plan.problems.join('\n')).not.toContain('brew');
  });

  test('an unreachable server on another host (not from the environment) is an error, never installed', () => {
    const plan = decide('Debian as root', factsWith('postgres', 'missing', { local: false, host: 'db.internal' }));
    expect(planFor(plan, 'postgres').action).toBe('error');
    expect(plan.apt).toBeUndefined();
    expect(plan.problems.join('\n')).toContain('point DATABASE_URL at one that is running');
  });

  test('a reachable URL from the environment is used as it is, even on a machine that could install', () => {
    const plan = decide('Debian as root', factsWith('postgres', 'running', { explicit: true, installed: false }), { ci: true, ciEnvironment: true });
    expect(planFor(plan, 'postgres').action).toBe('none');
    expect(plan.apt).toBeUndefined();
    expect(plan.postgresLogin).toBeUndefined();
  });
});

describe('preflight decisions: tests with a Docker engine, CI tools, the PostgreSQL login', () => {
  test('npm test on a system that cannot install leaves a stopped server to the integration set-up when a Docker engine is there; npm start does not', () => {
    const docker = { ...systems.macOS, dockerEngine: true };
    const tests = decide(docker, factsWith('redis', 'missing'), { mode: 'tests' });
    expect(planFor(tests, 'redis').action).toBe('containers');
    expect(tests.ok).toBe(true);
    expect(tests.notes.join('\n')).toContain('in a container');
    const stack = decide(docker, factsWith('redis', 'missing'), { mode: 'stack' });
    expect(planFor(stack, 'redis').action).toBe('refuse');
    const debian = decide({ ...systems['Debian as root'], dockerEngine: true }, factsWith('redis', 'missing'), { mode: 'tests' });
    expect(planFor(debian, 'redis').action).toBe('install');
  });

  test('--ci installs a missing compose client and promtool with apt (the prometheus daemon its package starts is stopped); without --ci tools are not judged', () => {
    const tools = [
      { id: 'compose', installed: false },
      { id: 'promtool', installed: false },
    ];
    const ci = decide('Debian with sudo', factsWith('redis', 'running'), { ci: true, tools });
    expect(ci.tools.map((tool: any) => tool.action)).toEqual(['install', 'install']);
    expect(ci.apt.commands[1]).toEqual(['sudo', ...aptEnv, 'install', '-y', '-qq', '--no-install-recommends', 'docker-compose', 'prometheus']);
    expect(ci.tools[1].stop).toEqual({ pidFile: '/run/prometheus/prometheus.pid', kill: ['sudo', 'kill'] });
    expect(decide('Debian with sudo', factsWith('redis', 'running'), { ci: false, tools }).tools).toEqual([]);
    const mac = decide('macOS', factsWith('redis', 'running'), { ci: true, tools });
    expect(mac.ok).toBe(false);
    expect(mac.problems).toEqual(expect.arrayContaining(['      brew install docker-compose', '      brew install prometheus']));
    const installed = decide('Debian without root or sudo', factsWith('redis', 'running'), { ci: true, tools: tools.map((tool) => ({ ...tool, installed: true })) });
    expect(installed.ok).toBe(true);
  });

  test('npm test and .ci/run (--for tests, with or without --ci) install a missing chromium with apt for the browser test; npm start does not judge it; a system that cannot install is refused with the commands', () => {
    const chromium = [{ id: 'chromium', installed: false }];
    expect(preflight.toolsFor('tests', false).map((tool: any) => tool.id)).toEqual(['chromium', 'redis-server']);
    expect(preflight.toolsFor('tests', true).map((tool: any) => tool.id)).toEqual(['compose', 'promtool', 'chromium', 'redis-server']);
    expect(preflight.toolsFor('stack', false)).toEqual([]);

    const tests = decide('Debian as root', factsWith('redis', 'running'), { mode: 'tests', tools: chromium });
    expect(tests.tools).toEqual([{ id: 'chromium', name: expect.stringContaining('chromium'), action: 'install', packages: ['chromium'], command: '/usr/bin/chromium', stop: undefined }]);
    expect(tests.apt.commands[1]).toEqual([...aptEnv, 'install', '-y', '-qq', '--no-install-recommends', 'chromium']);
    const ci = decide('Debian with sudo', factsWith('redis', 'running'), { mode: 'tests', ci: true, tools: [{ id: 'compose', installed: true }, { id: 'promtool', installed: false }, ...chromium] });
    expect(ci.apt.commands[1]).toEqual(['sudo', ...aptEnv, 'install', '-y', '-qq', '--no-install-recommends', 'prometheus', 'chromium']);
    expect(decide('Debian as root', factsWith('redis', 'running'), { mode: 'stack', tools: chromium }).tools).toEqual([]);
    const refused = decide('Debian without root or sudo', factsWith('redis', 'running'), { mode: 'tests', tools: chromium });
    expect(refused.ok).toBe(false);
    expect(refused.problems).toEqual(expect.arrayContaining([expect.stringContaining('chromium at /usr/bin/chromium'), '      apt-get update && apt-get install -y chromium']));
    expect(decide('Debian without root or sudo', factsWith('redis', 'running'), { mode: 'tests', tools: [{ id: 'chromium', installed: true }] }).ok).toBe(true);
  });

  test('a tool named by an absolute path (chromium) is installed when that file is executable, not when it is missing', () => {
    expect(preflight.commandExists(process.execPath)).toBe(true);
    expect(preflight.commandExists(path.join(repoRoot, 'no-such-directory', 'chromium'))).toBe(false);
    expect(preflight.commandExists(path.join(repoRoot, 'package.json'))).toBe(false);
  });

  test('the password-less PostgreSQL login is checked after a start and in CI; switched to trust only on a CI machine or after an install', () => {
    const started = decide('Debian as root', factsWith('postgres', 'installed but stopped'));
    expect(started.postgresLogin).toMatchObject({ host: '127.0.0.1', port: 5432, variable: 'DATABASE_URL' });
    expect(started.postgresLogin.trustFix).toBeUndefined();

    const installed = decide('Debian with sudo', factsWith('postgres', 'missing'));
    expect(installed.postgresLogin.trustFix.commands).toEqual([
      ['sudo', 'sed', '-i', '-E', 's/^(host[[:space:]]+all[[:space:]]+all[[:space:]]+(127\\.0\\.0\\.1\\/32|::1\\/128)[[:space:]]+).*/\\1trust/', '/etc/postgresql/{postgres-version}/main/pg_hba.conf'],
      ['sudo', 'pg_ctlcluster', '--skip-systemctl-redirect', '{postgres-version}', 'main', 'reload'],
    ]);

    expect(decide('Debian as root', factsWith('postgres', 'running')).postgresLogin).toBeUndefined();
    expect(decide('Debian as root', factsWith('postgres', 'running'), { ci: true }).postgresLogin.trustFix).toBeUndefined();
    expect(decide('Debian as root', factsWith('postgres', 'running'), { ci: true, ciEnvironment: true }).postgresLogin.trustFix).toBeDefined();
    expect(decide('Debian without root or sudo', factsWith('postgres', 'running'), { ci: true, ciEnvironment: true }).postgresLogin.trustFix).toBeUndefined();
    expect(decide('macOS', factsWith('postgres', 'running'), { ci: true, ciEnvironment: true }).postgresLogin).toBeUndefined();
  });
});

describe('preflight executor', () => {
  function recorder(overrides: Record<string, unknown> = {}) {
    const ran: string[][] = [];
    const deps = {
      run: (argv: string[]) => {
        ran.push(argv);
        return 0;
      },
      probe: () => Promise.resolve(true),
      sleep: () => Promise.resolve(),
      log: () => undefined,
      waitSeconds: 3,
      postgresVersion: () => '15',
      commandExists: () => true,
      psqlAvailable: () => true,
      canLogIn: () => true,
      readPid: () => undefined,
      ...overrides,
    };
    return { ran, deps };
  }

  test('a plan where everything already runs touches nothing (not even with --ci on a CI machine)', async () => {
    const tools = [
      { id: 'compose', installed: true },
      { id: 'promtool', installed: true },
    ];
    for (const system of Object.keys(systems) as SystemName[]) {
      const plan = decide(system, serverIds.map((id) => fact(id, 'running')), { ci: true, ciEnvironment: true, tools });
      expect(plan.ok).toBe(true);
      const { ran, deps } = recorder({ probe: () => Promise.reject(new Error('a running server is not probed again')) });
      const result = await preflight.execute(plan, deps);
      // Only the queues earlier test runs left on the local broker are deleted, where the preflight manages the servers.
      const cleanup = system === 'Debian as root' ? [['rabbitmqctl', '-q', 'eval', preflight.leftoverTestQueuesEval]] : system === 'Debian with sudo' ? [['sudo', 'rabbitmqctl', '-q', 'eval', preflight.leftoverTestQueuesEval]] : [];
      expect(ran).toEqual(cleanup);
      expect(result.ran).toEqual(cleanup);
    }
  });

  test('runs apt-get, the starts (with sudo), the waits and the trust fix in order', async () => {
    const plan = decide('Debian with sudo', [fact('postgres', 'missing'), fact('rabbitmq', 'running'), fact('redis', 'installed but stopped')]);
    const listening = new Set<number>();
    const { ran, deps } = recorder({
      run: (argv: string[]) => {
        ran.push(argv);
        if (argv.includes('pg_ctlcluster') && argv.includes('start')) listening.add(5432);
        if (argv.includes('redis-server')) listening.add(6379);
        return 0;
      },
      probe: (_host: string, port: number) => Promise.resolve(listening.has(port)),
      canLogIn: (() => {
        let calls = 0;
        return () => (calls += 1) > 1; // refused before the trust fix, accepted after
      })(),
    });
    await preflight.execute(plan, deps);
    expect(ran).toEqual([
      ['sudo', ...aptEnv, 'update', '-qq'],
      ['sudo', ...aptEnv, 'install', '-y', '-qq', '--no-install-recommends', 'postgresql'],
      ['sudo', 'pg_ctlcluster', '--skip-systemctl-redirect', '15', 'main', 'start'],
      ['sudo', ...expected.redis.start],
      ['sudo', 'sed', '-i', '-E', 's/^(host[[:space:]]+all[[:space:]]+all[[:space:]]+(127\\.0\\.0\\.1\\/32|::1\\/128)[[:space:]]+).*/\\1trust/', '/etc/postgresql/15/main/pg_hba.conf'],
      ['sudo', 'pg_ctlcluster', '--skip-systemctl-redirect', '15', 'main', 'reload'],
    ]);
  });

  test('a server the package install already started is not started again', async () => {
    const plan = decide('Debian as root', factsWith('rabbitmq', 'missing'));
    const { ran, deps } = recorder({ probe: () => Promise.resolve(true) });
    await preflight.execute(plan, deps);
    expect(ran.map((argv) => argv.join(' '))).toEqual([`${aptEnv.join(' ')} update -qq`, `${aptEnv.join(' ')} install -y -qq --no-install-recommends rabbitmq-server`]);
  });

  test('a server that never listens fails after CI_SERVER_WAIT_SECONDS', async () => {
    const plan = decide('Debian as root', factsWith('redis', 'installed but stopped'));
    const { deps } = recorder({ probe: () => Promise.resolve(false) });
    await expect(preflight.execute(plan, deps)).rejects.toThrow('Redis did not accept connections on 127.0.0.1:6379 within 3s');
    expect(preflight.waitSecondsFrom({})).toBe(90);
    expect(preflight.waitSecondsFrom({ CI_SERVER_WAIT_SECONDS: '15' })).toBe(15);
  });

  test('a failing command stops the run; a login that stays refused without the trust fix is an error; a refused plan runs nothing', async () => {
    const failing = recorder({ run: () => 100 });
    await expect(preflight.execute(decide('Debian as root', factsWith('redis', 'missing')), failing.deps)).rejects.toThrow(/apt-get update -qq failed \(exit status 100\)/);

    const refused = recorder({ canLogIn: () => false, probe: () => Promise.resolve(true) });
    await expect(preflight.execute(decide('Debian as root', factsWith('postgres', 'installed but stopped')), refused.deps)).rejects.toThrow(
      'cannot log in to PostgreSQL as postgres on 127.0.0.1:5432 without a password; set DATABASE_URL',
    );
    expect(refused.ran).toEqual([]);

    const nothing = recorder();
    await expect(preflight.execute(decide('macOS', factsWith('redis', 'missing')), nothing.deps)).rejects.toThrow('brew install redis');
    expect(nothing.ran).toEqual([]);
  });
});

describe('preflight: a server that accepts connections but does not answer is stuck', () => {
  /** A TCP server on a free port that answers each connection with `answer` (or never, when undefined). */
  async function fakeServer(answer: Buffer | undefined): Promise<{ port: number; close: () => Promise<void> }> {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('data', () => {
        if (answer !== undefined) socket.write(answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as net.AddressInfo).port,
      close: async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  test('each protocol’s first question: the real servers answer; one that only accepts, or answers another protocol, does not', async () => {
    const silent = await fakeServer(undefined);
    const amqpStart = await fakeServer(Buffer.from([0x01, 0x00, 0x00, 0x00, 0x00, 0x01, 0xf4]));
    const sslRefused = await fakeServer(Buffer.from('N'));
    const pong = await fakeServer(Buffer.from('+PONG\r\n'));
    try {
      for (const id of serverIds) expect([id, await preflight.answersProtocol(id, '127.0.0.1', silent.port, 500)]).toEqual([id, false]);
      // The restart finds the stuck server's process by the port it listens on: here, this very process.
      expect(preflight.listenerPid(silent.port)).toBe(String(process.pid));
      expect(await preflight.answersProtocol('rabbitmq', '127.0.0.1', amqpStart.port)).toBe(true);
      expect(await preflight.answersProtocol('postgres', '127.0.0.1', sslRefused.port)).toBe(true);
      expect(await preflight.answersProtocol('redis', '127.0.0.1', pong.port)).toBe(true);
      expect(await preflight.answersProtocol('rabbitmq', '127.0.0.1', pong.port)).toBe(false);
      const urls = serverUrls();
      const portOf = (raw: string, fallback: number) => Number(new URL(raw).port) || fallback;
      expect(await preflight.answersProtocol('postgres', new URL(urls.postgres).hostname, portOf(urls.postgres, 5432))).toBe(true);
      expect(await preflight.answersProtocol('rabbitmq', new URL(urls.amqp).hostname, portOf(urls.amqp, 5672))).toBe(true);
      expect(await preflight.answersProtocol('redis', new URL(urls.redis).hostname, portOf(urls.redis, 6379))).toBe(true);
    } finally {
      await Promise.all([silent, amqpStart, sslRefused, pong].map((fake) => fake.close()));
    }
  });

  test('.ci/run (--ci) on Debian as root restarts a stuck server; npm start and npm test, and other systems, refuse with the commands', () => {
    const stuck = factsWith('rabbitmq', 'running', { stuck: true });
    const ci = decide('Debian as root', stuck, { ci: true });
    expect(ci.ok).toBe(true);
    expect(planFor(ci, 'rabbitmq')).toMatchObject({ action: 'restart', restart: { stop: ['kill', '-TERM'], kill: ['kill', '-KILL'], start: expected.rabbitmq.start } });
    expect(planFor(decide('Debian with sudo', factsWith('postgres', 'running', { stuck: true }), { ci: true }), 'postgres').restart.stop).toEqual(['sudo', 'kill', '-INT']);

    const local = decide('Debian as root', stuck);
    expect(local.ok).toBe(false);
    expect(planFor(local, 'rabbitmq').action).toBe('refuse');
    expect(local.problems.join('\n')).toContain('RabbitMQ accepts connections at 127.0.0.1:5672 but does not answer within 5s');
    expect(local.problems).toContain(`    ${expected.rabbitmq.startText}`);
    expect(decide('macOS', stuck, { ci: true }).problems).toContain('    brew services restart rabbitmq');
    expect(decide('Debian without root or sudo', stuck, { ci: true }).ok).toBe(false);
  });

  test('the restart stops the process listening on the port, by pid (KILL when it will not go), starts the server and waits until it answers', async () => {
    const plan = decide('Debian as root', factsWith('redis', 'running', { stuck: true }), { ci: true });
    const ran: string[][] = [];
    let listening = true;
    let killed = false;
    const deps = {
      run: (argv: string[]) => {
        ran.push(argv);
        // TERM closes the listener but the process hangs on (as a stuck broker does); only KILL ends it.
        if (argv[0] === 'kill') listening = false;
        if (argv.includes('-KILL')) killed = true;
        if (argv[0] === 'redis-server') listening = true;
        return 0;
      },
      alive: () => !killed,
      probe: () => Promise.resolve(listening),
      answers: () => Promise.resolve(killed),
      listenerPid: (port: number) => (port === 6379 ? '4242' : undefined),
      sleep: () => Promise.resolve(),
      log: () => undefined,
      waitSeconds: 3,
    };
    await preflight.execute(plan, deps);
    expect(ran).toEqual([['rabbitmqctl', '-q', 'eval', preflight.leftoverTestQueuesEval], ['kill', '-TERM', '4242'], ['kill', '-KILL', '4242'], expected.redis.start]);

    // Deleting the leftover queues can be enough: a server that answers by then is not restarted.
    const answering: string[][] = [];
    await preflight.execute(plan, { ...deps, run: (argv: string[]) => (answering.push(argv), 0), answers: () => Promise.resolve(true) });
    expect(answering).toEqual([['rabbitmqctl', '-q', 'eval', preflight.leftoverTestQueuesEval]]);

    const nobody = { ...deps, listenerPid: () => undefined, answers: () => Promise.resolve(false) };
    await expect(preflight.execute(plan, nobody)).rejects.toThrow('no process listening on port 6379 was found');
    const stillMute = { ...deps, run: () => 0, alive: () => false, probe: () => Promise.resolve(true), answers: () => Promise.resolve(false) };
    await expect(preflight.execute(plan, stillMute)).rejects.toThrow('Redis was restarted but still does not answer on 127.0.0.1:6379');
  });
});

describe('preflight CLI', () => {
  async function closedPort(): Promise<number> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  function runCli(args: string[], env: Record<string, string>) {
    const base = { ...process.env };
    for (const name of ['TEST_DATABASE_URL', 'TEST_AMQP_URL', 'TEST_REDIS_URL', 'DATABASE_URL', 'AMQP_URL', 'REDIS_URL', 'DOCKER_HOST', 'CI']) delete base[name];
    return spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'preflight.js'), ...args], { env: { ...base, ...env }, encoding: 'utf8', timeout: 30_000 });
  }

  test('on another system, an unreachable URL from the environment exits 1 naming the variable (password redacted) and printing the commands', async () => {
    const port = await closedPort();
    const result = runCli(['--for', 'tests', '--system', 'macos'], { TEST_DATABASE_URL: `postgres://tester:s3cret@127.0.0.1:${port}/db`, ...explicitRunning('postgres') });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`PostgreSQL is not reachable at 127.0.0.1:${port} (TEST_DATABASE_URL=postgres://tester:***@127.0.0.1:${port}/db).`);
    expect(result.stderr).toContain('TEST_DATABASE_URL was given in the environment');
    expect(result.stderr).toContain('With Homebrew:');
    expect(result.stderr).toContain('brew services start postgresql@15');
    expect(result.stderr).toContain('Then run npm test again.');
    expect(result.stderr).not.toContain('s3cret');
  });

  test('npm start mode reads DATABASE_URL; a bad --for is a usage error', async () => {
    const port = await closedPort();
    const result = runCli(['--for', 'stack', '--system', 'other'], { DATABASE_URL: `postgres://app:pw@127.0.0.1:${port}/partner_wallet` });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`(DATABASE_URL=postgres://app:***@127.0.0.1:${port}/partner_wallet)`);
    expect(result.stderr).toContain('Then run npm start again.');
    const usage = runCli(['--for', 'everything'], {});
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('usage: node scripts/preflight.js');
  });

  test('servers given in the environment that answer are used as they are: exit 0', () => {
    const urls = serverUrls();
    const result = runCli(['--for', 'tests'], { TEST_DATABASE_URL: urls.postgres, TEST_AMQP_URL: urls.amqp, TEST_REDIS_URL: urls.redis });
    expect(result.stderr).toContain('answering');
    expect(result.status).toBe(0);
  });

  /** The other two servers as URLs from the environment (the running test servers), so only the one under test is judged. */
  function explicitRunning(except: ServerId): Record<string, string> {
    const urls = serverUrls();
    const all: Record<ServerId, [string, string]> = { postgres: ['TEST_DATABASE_URL', urls.postgres], rabbitmq: ['TEST_AMQP_URL', urls.amqp], redis: ['TEST_REDIS_URL', urls.redis] };
    return Object.fromEntries(serverIds.filter((id) => id !== except).map((id) => all[id]));
  }
});
