// Validates docker-compose.yml (and the Prometheus scrape config) without a Docker engine:
// `docker compose config` resolves the file client-side. Needs the docker client with the compose
// plugin (`docker compose`), or the standalone `docker-compose`; without either the suite fails
// with a message saying so, it never skips.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

const repoRoot = path.resolve(__dirname, '..', '..');
const composeFile = path.join(repoRoot, 'docker-compose.yml');

const databaseServices = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks', 'backoffice', 'dashboard'] as const;

/** One password per PostgreSQL role: <SVC>_DB_PASSWORD (runtime), <SVC>_DB_OWNER_PASSWORD (owner). */
const rolePasswords = Object.fromEntries(
  databaseServices.flatMap((name) => [
    [`${name.toUpperCase()}_DB_PASSWORD`, `dummy-${name}-runtime-password`],
    [`${name.toUpperCase()}_DB_OWNER_PASSWORD`, `dummy-${name}-owner-password`],
  ]),
) as Record<string, string>;

const requiredSecrets: Record<string, string> = {
  AUTH_KEY_ENCRYPTION_KEY: 'dummy-auth-key-encryption-key',
  WEBHOOK_SECRET_SEALING_KEY: 'dummy-webhook-secret-sealing-key',
  BACKOFFICE_SEALING_KEY: 'dummy-backoffice-sealing-key',
  DASHBOARD_SEALING_KEY: 'dummy-dashboard-sealing-key',
  POSTGRES_PASSWORD: 'dummy-postgres-password',
  RABBITMQ_PASSWORD: 'dummy-rabbitmq-password',
  GRAFANA_ADMIN_PASSWORD: 'dummy-grafana-password',
  ...rolePasswords,
};

/** The URL of one of a service's roles, as compose resolves it with requiredSecrets. */
const roleUrl = (name: string, role: 'runtime' | 'owner') =>
  `postgres://pwa_${name}_${role}:dummy-${name}-${role}-password@postgres:5432/partner_wallet`;

const internalServices = [
  { name: 'auth', port: 4101, env: ['DATABASE_URL', 'AMQP_URL', 'AUTH_KEY_ENCRYPTION_KEY', 'WEBHOOK_SECRET_SEALING_KEY'] },
  { name: 'wallet', port: 4102, env: ['DATABASE_URL', 'AMQP_URL'] },
  { name: 'quotes', port: 4103, env: ['DATABASE_URL', 'WALLET_URL'] },
  { name: 'collections', port: 4104, env: ['DATABASE_URL', 'AMQP_URL', 'QUOTES_URL', 'WALLET_URL'] },
  { name: 'disbursements', port: 4105, env: ['DATABASE_URL', 'AMQP_URL', 'QUOTES_URL', 'WALLET_URL'] },
  { name: 'webhooks', port: 4106, env: ['DATABASE_URL', 'AMQP_URL', 'WEBHOOK_SECRET_SEALING_KEY'] },
] as const;

interface ComposeService {
  image?: string;
  restart?: string;
  command?: string[] | string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, string> };
  environment?: Record<string, string | null>;
  ports?: Array<string | { target: number | string; published?: number | string; host_ip?: string }>;
  volumes?: Array<string | { source?: string; target?: string }>;
  healthcheck?: { test?: string[] | string; interval?: string; timeout?: string; retries?: number; start_period?: string };
  depends_on?: Record<string, { condition?: string }> | string[];
}
interface ComposeModel {
  services: Record<string, ComposeService>;
}

type Compose = { command: string; prefix: string[]; json: boolean };

/** `docker compose` (v2, JSON output) if the plugin is there, else the standalone `docker-compose`. */
function findCompose(): Compose {
  const docker = spawnSync('docker', ['--version'], { encoding: 'utf8' });
  const plugin = docker.error ? undefined : spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (plugin && plugin.status === 0) return { command: 'docker', prefix: ['compose'], json: true };
  const standalone = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
  if (!standalone.error && standalone.status === 0) return { command: 'docker-compose', prefix: [], json: false };
  throw new Error(
    docker.error
      ? 'The docker client is not installed: these tests run `docker compose config` (no engine needed). ' +
          'Install the docker client with its compose plugin (or `apt-get install docker-compose`).'
      : 'The docker client is installed but `docker compose` is not (nor `docker-compose`): install the compose ' +
          'plugin (docker-compose-plugin) or `apt-get install docker-compose`.',
  );
}

let compose: Compose;
let workDir: string;
let emptyEnvFile: string;

/** Runs `config` with exactly the given variables (plus PATH/HOME), ignoring any local .env file. */
function composeConfig(variables: Record<string, string>) {
  const args = [...compose.prefix, '-f', composeFile, '--env-file', emptyEnvFile, 'config', ...(compose.json ? ['--format', 'json'] : [])];
  return spawnSync(compose.command, args, {
    cwd: workDir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? workDir, ...variables },
    timeout: 30_000,
  });
}

function portsOf(service: ComposeService): Array<{ hostIp?: string; published?: string; target: string }> {
  return (service.ports ?? []).map((port) => {
    if (typeof port === 'string') {
      const parts = port.replace(/\/(tcp|udp)$/, '').split(':');
      const target = parts.pop() as string;
      const published = parts.pop();
      return { hostIp: parts.pop(), published, target };
    }
    return { hostIp: port.host_ip, published: port.published === undefined ? undefined : String(port.published), target: String(port.target) };
  });
}

function dependsOn(service: ComposeService): Record<string, string | undefined> {
  const raw = service.depends_on ?? {};
  if (Array.isArray(raw)) return Object.fromEntries(raw.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(raw).map(([name, entry]) => [name, entry.condition]));
}

function healthTest(service: ComposeService): string {
  const test = service.healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

let model: ComposeModel;

/** One resolved service; fails the test naming it when docker-compose.yml lacks it. */
function svc(name: string): ComposeService {
  const service = model.services[name];
  if (!service) throw new Error(`docker-compose.yml has no service ${name}`);
  return service;
}

beforeAll(() => {
  compose = findCompose();
  workDir = mkdtempSync(path.join(tmpdir(), 'pwa-compose-'));
  emptyEnvFile = path.join(workDir, 'empty.env');
  writeFileSync(emptyEnvFile, '');
  const result = composeConfig({ ...requiredSecrets });
  if (result.error || result.status !== 0) {
    throw new Error(`compose config failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stderr}`);
  }
  model = (compose.json ? JSON.parse(result.stdout) : parseYaml(result.stdout)) as ComposeModel;
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('docker-compose.yml', () => {
  it('when resolved with every secret set, then it holds the seven services, the back-office, the dashboard, the one-shot database-roles and the five servers', () => {
    expect(Object.keys(model.services).sort()).toEqual(
      ['auth', 'backoffice', 'collections', 'dashboard', 'database-roles', 'disbursements', 'gateway', 'grafana', 'postgres', 'prometheus', 'quotes', 'rabbitmq', 'redis', 'wallet', 'webhooks'].sort(),
    );
    expect(svc('postgres').image).toBe('postgres:16');
    expect(svc('rabbitmq').image).toBe('rabbitmq:3.13-management');
    expect(svc('redis').image).toMatch(/^redis:7/);
    expect(svc('prometheus').image).toMatch(/^prom\/prometheus:/);
    expect(svc('grafana').image).toMatch(/^grafana\/grafana:/);
    for (const server of ['postgres', 'rabbitmq', 'redis', 'prometheus', 'grafana']) {
      expect(healthTest(svc(server))).not.toBe('');
    }
  });

  it('when resolved, then the seven services, the back-office, the dashboard and database-roles run the one image built from the Dockerfile, each service with the command that chooses it', () => {
    const names = ['gateway', 'backoffice', 'dashboard', ...internalServices.map(({ name }) => name)];
    expect(svc('database-roles').image).toBe('partner-wallet-api:local');
    expect(new Set(names.map((name) => svc(name).image))).toEqual(new Set(['partner-wallet-api:local']));
    for (const name of names) {
      const service = svc(name);
      expect(path.basename(service.build?.dockerfile ?? '')).toBe('Dockerfile');
      expect(path.resolve(service.build?.context ?? '')).toBe(repoRoot);
      expect(service.build?.args ?? {}).toEqual({});
      expect(service.command).toEqual(['node', `services/${name}/dist/main.js`]);
    }
  });

  it('when PWA_IMAGE is set, then every service runs that image', () => {
    const result = composeConfig({ ...requiredSecrets, PWA_IMAGE: 'registry.example.com/partner-wallet-api:1.2.3' });
    expect(result.status).toBe(0);
    const resolved = (compose.json ? JSON.parse(result.stdout) : parseYaml(result.stdout)) as ComposeModel;
    const images = ['gateway', 'backoffice', 'dashboard', 'database-roles', ...internalServices.map(({ name }) => name)].map((name) => resolved.services[name]?.image);
    expect(new Set(images)).toEqual(new Set(['registry.example.com/partner-wallet-api:1.2.3']));
  });

  it.each(internalServices)('when resolved, then $name has its port, env and readiness check', ({ name, port, env }) => {
    const service = svc(name);
    expect(service.environment?.HOST).toBe('0.0.0.0');
    expect(service.environment?.PORT).toBe(String(port));
    for (const key of env) expect(service.environment?.[key]).toEqual(expect.any(String));
    expect(service.environment?.DATABASE_URL).toContain('@postgres:5432/');
    expect(healthTest(service)).toContain('/readyz');
    expect(dependsOn(service).postgres).toBe('service_healthy');
    expect(dependsOn(service)['database-roles']).toBe('service_completed_successfully');
    // Internal ports stay on the compose network.
    expect(portsOf(service)).toEqual([]);
  });

  it.each(databaseServices)('when resolved, then %s connects as its own runtime role and migrates as its own owner role, never as postgres', (name) => {
    const environment = svc(name).environment ?? {};
    expect(environment.DATABASE_URL).toBe(roleUrl(name, 'runtime'));
    expect(environment.MIGRATION_DATABASE_URL).toBe(roleUrl(name, 'owner'));
    const urls = Object.values(environment).filter((value): value is string => typeof value === 'string' && value.startsWith('postgres://'));
    expect(urls.sort()).toEqual([roleUrl(name, 'owner'), roleUrl(name, 'runtime')].sort());
    expect(JSON.stringify(environment)).not.toContain(requiredSecrets.POSTGRES_PASSWORD);
    // No other service's role or password.
    for (const other of databaseServices.filter((service) => service !== name)) expect(JSON.stringify(environment)).not.toContain(`pwa_${other}_`);
  });

  it('when resolved, then the one-shot database-roles runs the provisioning command as the postgres superuser with every service’s two URLs, once postgres is healthy', () => {
    const roles = svc('database-roles');
    expect(roles.image).toBe('partner-wallet-api:local');
    expect(roles.command).toEqual(['node', 'libs/runtime/dist/database-roles/main.js', 'provision']);
    expect(roles.restart).toBe('no');
    expect(dependsOn(roles)).toEqual({ postgres: 'service_healthy' });
    expect(roles.healthcheck).toBeUndefined();
    expect(portsOf(roles)).toEqual([]);
    const expected: Record<string, string> = {
      ADMIN_DATABASE_URL: `postgres://postgres:${requiredSecrets.POSTGRES_PASSWORD}@postgres:5432/partner_wallet`,
    };
    for (const name of databaseServices) {
      expected[`${name.toUpperCase()}_DATABASE_URL`] = roleUrl(name, 'runtime');
      expected[`${name.toUpperCase()}_MIGRATION_DATABASE_URL`] = roleUrl(name, 'owner');
    }
    expect(roles.environment).toEqual(expected);
  });

  it('when resolved, then only database-roles holds the postgres superuser’s password, and every service with a database starts after it completed', () => {
    for (const [name, service] of Object.entries(model.services)) {
      const text = JSON.stringify(service.environment ?? {});
      expect([name, text.includes(`postgres://postgres:`)]).toEqual([name, name === 'database-roles']);
    }
    for (const name of databaseServices) expect([name, dependsOn(svc(name))['database-roles']]).toEqual([name, 'service_completed_successfully']);
    // The gateway, which has no database, waits for the services, which waited for database-roles.
    expect(dependsOn(svc('gateway'))).not.toHaveProperty('database-roles');
  });

  it('when resolved, then only auth receives the key encryption key, only auth and webhooks the sealing key, and only the back-office and the dashboard their own', () => {
    for (const [name, service] of Object.entries(model.services)) {
      expect([name, 'AUTH_KEY_ENCRYPTION_KEY' in (service.environment ?? {})]).toEqual([name, name === 'auth']);
      expect([name, 'WEBHOOK_SECRET_SEALING_KEY' in (service.environment ?? {})]).toEqual([name, name === 'auth' || name === 'webhooks']);
      expect([name, 'BACKOFFICE_SEALING_KEY' in (service.environment ?? {})]).toEqual([name, name === 'backoffice']);
      expect([name, 'DASHBOARD_SEALING_KEY' in (service.environment ?? {})]).toEqual([name, name === 'dashboard']);
    }
    expect(svc('auth').environment?.AUTH_KEY_ENCRYPTION_KEY).toBe(requiredSecrets.AUTH_KEY_ENCRYPTION_KEY);
  });

  it('when the back-office\'s optional keys are not given, then they resolve empty (unset for the service); given, only the back-office receives them', () => {
    const optional = ['BACKOFFICE_SEALING_KEY_PREVIOUS', 'BACKOFFICE_OIDC_ISSUER_URL', 'BACKOFFICE_OIDC_CLIENT_ID', 'BACKOFFICE_OIDC_CLIENT_SECRET'];
    for (const name of optional) expect([name, svc('backoffice').environment?.[name]]).toEqual([name, '']);
    const given = { BACKOFFICE_SEALING_KEY_PREVIOUS: 'dummy-previous-sealing-key', BACKOFFICE_OIDC_ISSUER_URL: 'https://login.operator.example', BACKOFFICE_OIDC_CLIENT_ID: 'backoffice', BACKOFFICE_OIDC_CLIENT_SECRET: 'dummy-oidc-client-secret' };
    const result = composeConfig({ ...requiredSecrets, ...given });
    expect(result.status).toBe(0);
    const resolved = (compose.json ? JSON.parse(result.stdout) : parseYaml(result.stdout)) as ComposeModel;
    expect(resolved.services.backoffice?.environment).toMatchObject(given);
    for (const [name, service] of Object.entries(resolved.services)) {
      if (name !== 'backoffice') expect([name, optional.filter((key) => key in (service.environment ?? {}))]).toEqual([name, []]);
    }
  });

  it('when resolved, then the gateway publishes 8443 only, reaches every service and mounts its TLS pair', () => {
    const gateway = svc('gateway');
    expect(portsOf(gateway)).toEqual([expect.objectContaining({ published: '8443', target: '8443' })]);
    expect(gateway.environment).toMatchObject({
      HOST: '0.0.0.0',
      PORT: '8443',
      ADMIN_PORT: '9400',
      TLS_CERT_FILE: '/run/tls/cert.pem',
      TLS_KEY_FILE: '/run/tls/key.pem',
      REDIS_URL: 'redis://redis:6379',
    });
    for (const { name, port } of internalServices) {
      expect(gateway.environment?.[`${name.toUpperCase()}_URL`]).toBe(`http://${name}:${port}`);
      expect(dependsOn(gateway)[name]).toBe('service_healthy');
    }
    expect(dependsOn(gateway)).toMatchObject({ redis: 'service_healthy', rabbitmq: 'service_healthy' });
    expect(healthTest(gateway)).toContain('ADMIN_PORT');
    const volumes = (gateway.volumes ?? []).map((volume) => (typeof volume === 'string' ? volume : `${volume.source}:${volume.target}`));
    expect(volumes).toEqual([expect.stringMatching(/\.local\/tls:\/run\/tls(:ro)?$/)]);
  });

  it('when resolved, then the back-office terminates TLS with the pair, is published on loopback only, is never behind the gateway, executes through auth, wallet and quotes, and reaches the dashboard’s internal port', () => {
    const backoffice = svc('backoffice');
    expect(backoffice.environment).toMatchObject({
      HOST: '0.0.0.0',
      PORT: '4107',
      TLS_MODE: 'terminate',
      TLS_CERT_FILE: '/run/tls/cert.pem',
      TLS_KEY_FILE: '/run/tls/key.pem',
      BACKOFFICE_PUBLIC_URL: 'https://localhost:4107',
      BACKOFFICE_SEALING_KEY: requiredSecrets.BACKOFFICE_SEALING_KEY,
      REDIS_URL: 'redis://redis:6379',
      AUTH_URL: 'http://auth:4101',
      WALLET_URL: 'http://wallet:4102',
      QUOTES_URL: 'http://quotes:4103',
      DASHBOARD_INTERNAL_URL: 'http://dashboard:4118',
    });
    expect(portsOf(backoffice)).toEqual([expect.objectContaining({ published: '4107', target: '4107', hostIp: '127.0.0.1' })]);
    expect(healthTest(backoffice)).toContain('/readyz');
    expect(dependsOn(backoffice)).toMatchObject({ postgres: 'service_healthy', 'database-roles': 'service_completed_successfully', redis: 'service_healthy', dashboard: 'service_started' });
    const volumes = (backoffice.volumes ?? []).map((volume) => (typeof volume === 'string' ? volume : `${volume.source}:${volume.target}`));
    expect(volumes).toEqual([expect.stringMatching(/\.local\/tls:\/run\/tls(:ro)?$/)]);
    expect(JSON.stringify(svc('gateway').environment)).not.toContain('backoffice');
    expect(dependsOn(svc('gateway'))).not.toHaveProperty('backoffice');
  });

  it('when resolved, then the dashboard terminates TLS with the pair, is published like the gateway, and reads through auth and the owners of partner data', () => {
    const dashboard = svc('dashboard');
    expect(dashboard.environment).toMatchObject({
      HOST: '0.0.0.0',
      PORT: '4108',
      TLS_MODE: 'terminate',
      TLS_CERT_FILE: '/run/tls/cert.pem',
      TLS_KEY_FILE: '/run/tls/key.pem',
      DASHBOARD_PUBLIC_URL: 'https://localhost:4108',
      DASHBOARD_INTERNAL_PORT: '4118',
      DASHBOARD_INTERNAL_HOST: '0.0.0.0',
      DASHBOARD_SEALING_KEY: requiredSecrets.DASHBOARD_SEALING_KEY,
      REDIS_URL: 'redis://redis:6379',
      AUTH_URL: 'http://auth:4101',
      WALLET_URL: 'http://wallet:4102',
      COLLECTIONS_URL: 'http://collections:4104',
      DISBURSEMENTS_URL: 'http://disbursements:4105',
      WEBHOOKS_URL: 'http://webhooks:4106',
    });
    // The public port alone is published: the internal one (4118) stays on the compose network.
    expect(portsOf(dashboard)).toEqual([expect.objectContaining({ published: '4108', target: '4108' })]);
    // Its healthcheck asks the internal port's /readyz (the public port answers 404 there), with the
    // timings of the other services' (the shared readyz anchor).
    expect(healthTest(dashboard)).toContain("fetch('http://127.0.0.1:'+process.env.DASHBOARD_INTERNAL_PORT+'/readyz')");
    expect(healthTest(dashboard)).not.toContain('process.env.PORT');
    const auth = svc('auth');
    expect({ ...dashboard.healthcheck, test: undefined }).toEqual({ ...auth.healthcheck, test: undefined });
    expect(healthTest(dashboard)).toBe(healthTest(auth).replace('process.env.PORT', 'process.env.DASHBOARD_INTERNAL_PORT'));
    expect(dependsOn(dashboard)).toMatchObject({ postgres: 'service_healthy', 'database-roles': 'service_completed_successfully', redis: 'service_healthy' });
    // The dashboard waits for nobody that waits for it: it never depends on the back-office.
    expect(dependsOn(dashboard)).not.toHaveProperty('backoffice');
    expect(JSON.stringify(dashboard.environment)).not.toContain('backoffice');
    expect(JSON.stringify(svc('gateway').environment)).not.toContain('dashboard');
    expect(dependsOn(svc('gateway'))).not.toHaveProperty('dashboard');
    // Only the back-office is told where the dashboard is (a URL to the host dashboard), and only its internal port.
    const mentionsDashboard = (name: string) => Object.entries(svc(name).environment ?? {}).filter(([, value]) => typeof value === 'string' && /\/\/dashboard[:/]/.test(value));
    expect(mentionsDashboard('backoffice')).toEqual([['DASHBOARD_INTERNAL_URL', 'http://dashboard:4118']]);
    for (const name of Object.keys(model.services).filter((service) => service !== 'backoffice' && service !== 'dashboard')) {
      expect([name, mentionsDashboard(name)]).toEqual([name, []]);
    }
  });

  it('when resolved, then Grafana mounts its provisioning and dashboards and Prometheus its scrape config', () => {
    const mounts = (name: string) =>
      (svc(name).volumes ?? []).map((volume) => (typeof volume === 'string' ? volume : `${volume.source}:${volume.target}`)).join('\n');
    expect(mounts('grafana')).toContain('deploy/grafana/provisioning:/etc/grafana/provisioning');
    expect(mounts('grafana')).toContain('deploy/grafana/dashboards:/var/lib/grafana/dashboards');
    expect(mounts('prometheus')).toContain('deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml');
    expect(svc('grafana').environment?.GF_SECURITY_ADMIN_PASSWORD).toBe(requiredSecrets.GRAFANA_ADMIN_PASSWORD);
  });

  it.each(Object.keys(requiredSecrets))('when %s is not set, then compose config fails naming it', (name) => {
    const variables: Record<string, string> = { ...requiredSecrets };
    delete variables[name];
    const result = composeConfig(variables);
    expect(result.status).not.toBe(0);
    // Its `${VAR:?set VAR ...}` message (docker-compose v1 also prints the unresolved mapping, which names every variable).
    expect(result.stderr).toMatch(new RegExp(`: set ${name}\\b`));
  });
});

describe('deploy/prometheus/prometheus.yml', () => {
  it('when parsed, then it scrapes /metrics of every service (the back-office on its own port, the dashboard on its internal port, in plain HTTP) and the gateway admin port', () => {
    const config = parseYaml(readFileSync(path.join(repoRoot, 'deploy/prometheus/prometheus.yml'), 'utf8')) as {
      scrape_configs: Array<{ metrics_path?: string; static_configs: Array<{ targets: string[] }> }>;
    };
    const targets = config.scrape_configs.flatMap((job) => {
      expect(job.metrics_path ?? '/metrics').toBe('/metrics');
      return job.static_configs.flatMap((group) => group.targets);
    });
    expect(targets.sort()).toEqual(['gateway:9400', 'backoffice:4107', 'dashboard:4118', ...internalServices.map(({ name, port }) => `${name}:${port}`)].sort());
    // The dashboard: on the compose service's DASHBOARD_INTERNAL_PORT, never its public PORT (4108 answers 404 for /metrics).
    expect(targets).not.toContain('dashboard:4108');
    expect(targets).toContain(`dashboard:${svc('dashboard').environment?.DASHBOARD_INTERNAL_PORT}`);
    expect(targets).not.toContain(`dashboard:${svc('dashboard').environment?.PORT}`);
    // The dashboard's job is the back-office's: plain HTTP (its internal port serves /metrics without TLS), its own service label.
    const jobs = config.scrape_configs as Array<{ job_name: string; scheme?: string; honor_labels?: boolean; static_configs: Array<{ targets: string[]; labels?: Record<string, string> }> }>;
    const dashboard = jobs.find((job) => job.job_name === 'dashboard');
    const backoffice = jobs.find((job) => job.job_name === 'backoffice');
    expect(dashboard).toEqual({ ...backoffice, job_name: 'dashboard', static_configs: [{ targets: ['dashboard:4118'], labels: { component: 'dashboard', service: 'dashboard' } }] });
    expect(dashboard?.scheme ?? 'http').toBe('http');
  });
});

describe('deploy/grafana', () => {
  it('when provisioned, then the dashboard provider points at the mounted dashboards and the overview queries existing metrics', () => {
    const provider = parseYaml(readFileSync(path.join(repoRoot, 'deploy/grafana/provisioning/dashboards/dashboards.yml'), 'utf8')) as {
      providers: Array<{ options: { path: string } }>;
    };
    expect(provider.providers.map((entry) => entry.options.path)).toEqual(['/var/lib/grafana/dashboards']);
    const datasources = parseYaml(readFileSync(path.join(repoRoot, 'deploy/grafana/provisioning/datasources/prometheus.yml'), 'utf8')) as {
      datasources: Array<{ uid: string; url: string }>;
    };
    expect(datasources.datasources).toEqual([expect.objectContaining({ uid: 'prometheus', url: 'http://prometheus:9090' })]);
    const dashboard = JSON.parse(readFileSync(path.join(repoRoot, 'deploy/grafana/dashboards/overview.json'), 'utf8')) as {
      uid: string;
      panels: Array<{ targets: Array<{ expr: string }> }>;
    };
    const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)).join('\n');
    for (const metric of ['http_requests_total', 'http_request_duration_seconds_bucket', 'circuit_breaker_state']) {
      expect(exprs).toContain(metric);
    }
  });
});
