// Rotation keys from Secrets and the PostgreSQL connection budget (issue 30, sections 3 and 5), in
// deploy/helm/partner-wallet rendered offline. The previous key of each rotation reaches, by
// secretKeyRef, the Deployment of the one service that reads it (services/*/src/config.ts) and no
// other pod, ConfigMap or Job; the schema refuses it, and every *_KEY / *_SECRET / *_PASSWORD name,
// as a plain setting. Each service's pool (databasePoolMax) is DATABASE_POOL_MAX in its ConfigMap;
// the pools at the maximum replicas, plus a rolling update's extra pod, and the migration Jobs are
// added up from the rendered objects and kept within database.maxConnections - reservedConnections,
// and values that exceed it fail the render with the sum and each service's share, unless
// database.pooler.enabled. The optional backup CronJob (pg_dump into a claim, the backup image).
// Every object rendered here is validated against the Kubernetes schemas.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Service, ServiceAccount } from 'kubernetes-models/v1';
import { parse as parseYaml } from 'yaml';
import { chartDirectory, parseManifests, runHelm } from '../support/helm-chart';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } } & Record<string, unknown>;
}
interface Container {
  name: string;
  image?: string;
  command?: string[];
  env?: EnvVar[];
}
interface PodTemplate {
  spec: { containers: Container[]; initContainers?: Container[] };
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  spec?: Record<string, any>;
}
interface ChartValues {
  database?: { maxConnections?: number; reservedConnections?: number };
}

const databaseServices = ['auth', 'backoffice', 'collections', 'dashboard', 'disbursements', 'quotes', 'wallet', 'webhooks'];
/** The previous key of each rotation and the one service whose config.ts reads it. */
const previousKeyReaders: Record<string, string> = {
  AUTH_KEY_ENCRYPTION_KEY_PREVIOUS: 'auth',
  WEBHOOK_SECRET_SEALING_KEY_PREVIOUS: 'webhooks',
  BACKOFFICE_SEALING_KEY_PREVIOUS: 'backoffice',
};
/** The Secret each previous key is read from in these renders. */
const secretNameOf = (name: string) => `partner-wallet-production-${name.toLowerCase().replaceAll('_', '-')}`;
const previousKeyRefs = Object.keys(previousKeyReaders).flatMap((name) => [
  '--set', `secretRefs.${name}.secretName=${secretNameOf(name)}`,
  '--set', `secretRefs.${name}.key=${name}`,
]);
/** The shape of a secret's name, as values.schema.json's secretLikeEnvName. */
const secretLikeName = /(^|_)(key|secret|password)(_previous)?$/i;

const valuesPath = (environment: string) => path.join(chartDirectory, environment === 'default' ? 'values.yaml' : `values-${environment}.yaml`);
const chartValues = (environment: string): ChartValues => parseYaml(readFileSync(valuesPath(environment), 'utf8')) as ChartValues;

/** helm template with values.yaml alone ('default') or with values-<environment>.yaml over it; never throws. */
const helmTemplate = (environment: string, extra: string[] = [], chart: string = chartDirectory) =>
  runHelm(['template', 'pwa', chart, ...(environment === 'default' ? [] : ['-f', path.join(chart, `values-${environment}.yaml`)]), ...extra]);
const render = (environment: string, extra: string[] = []): Manifest[] => {
  const result = helmTemplate(environment, extra);
  if (result.status !== 0) throw new Error(`helm template (${environment}) failed:\n${result.stderr}`);
  return parseManifests<Manifest>(result.stdout);
};

const temporaryDirectories: string[] = [];
afterAll(() => temporaryDirectories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const temporaryDirectory = (prefix: string): string => {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  temporaryDirectories.push(directory);
  return directory;
};
const valuesFile = (content: string): string => {
  const file = path.join(temporaryDirectory('pwa-values-'), 'values.yaml');
  writeFileSync(file, content);
  return file;
};

const ofKind = (manifests: Manifest[], kind: string) => manifests.filter((manifest) => manifest.kind === kind);
const component = (manifest: Manifest) => manifest.metadata.labels?.['app.kubernetes.io/component'];
const serviceOf = (manifest: Manifest) => (manifest.kind === 'Job' ? manifest.metadata.labels?.['partner-wallet.example/service'] : component(manifest));
const one = (manifests: Manifest[], kind: string, service: string) => ofKind(manifests, kind).find((manifest) => serviceOf(manifest) === service)!;
const containersOf = (manifest: Manifest) => {
  const pod = manifest.spec!.template as PodTemplate;
  return [...pod.spec.containers, ...(pod.spec.initContainers ?? [])];
};
const envOf = (manifest: Manifest): EnvVar[] => containersOf(manifest).flatMap((container) => container.env ?? []);
const migrationJobs = (manifests: Manifest[]) => ofKind(manifests, 'Job').filter((job) => job.metadata.name.endsWith('-migrate'));

const kubernetesModels: Record<string, new (data: any) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1 CronJob': CronJob,
  'batch/v1 Job': Job,
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 Service': Service,
  'v1 ServiceAccount': ServiceAccount,
};
/** Each manifest that fails its Kubernetes schema (rendered without the CRD APIs: built-in kinds only), with why. */
const invalidManifests = (manifests: Manifest[]): string[] =>
  manifests.flatMap((manifest) => {
    const Model = kubernetesModels[`${manifest.apiVersion} ${manifest.kind}`];
    if (!Model) return [`${manifest.kind}/${manifest.metadata.name}: no schema for ${manifest.apiVersion}`];
    try {
      new Model(manifest).validate();
      return [];
    } catch (error) {
      return [`${manifest.kind}/${manifest.metadata.name}: ${String(error)}`];
    }
  });

interface Share {
  service: string;
  pods: number;
  surge: number;
  poolMax: number;
}
/**
 * The budget as the rendered objects state it: for each Deployment whose ConfigMap holds
 * DATABASE_POOL_MAX, its HPA's maxReplicas (or its replicas), its rolling update's maxSurge and its
 * pool; one connection per migration Job.
 */
function budgetOf(manifests: Manifest[]): { shares: Share[]; hookConnections: number; total: number } {
  const shares = ofKind(manifests, 'ConfigMap')
    .filter((configMap) => configMap.data?.DATABASE_POOL_MAX !== undefined)
    .map((configMap): Share => {
      const service = component(configMap)!;
      const deployment = one(manifests, 'Deployment', service);
      const autoscaler = ofKind(manifests, 'HorizontalPodAutoscaler').find((hpa) => component(hpa) === service);
      return {
        service,
        pods: (autoscaler?.spec?.maxReplicas ?? deployment.spec!.replicas) as number,
        surge: deployment.spec!.strategy.rollingUpdate.maxSurge as number,
        poolMax: Number(configMap.data!.DATABASE_POOL_MAX),
      };
    });
  const hookConnections = migrationJobs(manifests).length;
  const total = shares.reduce((sum, share) => sum + (share.pods + share.surge) * share.poolMax, 0) + hookConnections;
  return { shares, hookConnections, total };
}

describe('deploy/helm/partner-wallet: rotation keys from Secrets', () => {
  it('when secretRefs names no previous key, then no pod, ConfigMap or Job gets one', () => {
    const text = JSON.stringify(render('production'));
    for (const name of Object.keys(previousKeyReaders)) expect([name, text.includes(name)]).toEqual([name, false]);
  });

  describe('when secretRefs names the previous keys of a rotation', () => {
    const manifests = render('production', previousKeyRefs);

    it.each(Object.entries(previousKeyReaders))('then %s reaches the %s Deployment by secretKeyRef on the Secret named, and no other Deployment', (name, reader) => {
      expect(envOf(one(manifests, 'Deployment', reader)).filter((variable) => variable.name === name)).toEqual([
        { name, valueFrom: { secretKeyRef: { name: secretNameOf(name), key: name } } },
      ]);
      const others = ofKind(manifests, 'Deployment').filter((deployment) => component(deployment) !== reader);
      expect(others).toHaveLength(8);
      for (const deployment of others) expect([component(deployment), envOf(deployment).map((variable) => variable.name)]).toEqual([component(deployment), expect.not.arrayContaining([name])]);
    });

    it('then no ConfigMap and no Job names a previous key or its Secret', () => {
      const plain = [...ofKind(manifests, 'ConfigMap'), ...ofKind(manifests, 'Job')];
      expect(plain.length).toBeGreaterThan(9);
      for (const manifest of plain) {
        const text = JSON.stringify(manifest);
        for (const name of Object.keys(previousKeyReaders)) expect([manifest.metadata.name, text.includes(name), text.includes(secretNameOf(name))]).toEqual([manifest.metadata.name, false, false]);
      }
    });

    it('then every secret-shaped variable of every pod comes from a Secret, and no ConfigMap has a secret-shaped key', () => {
      const pods = [...ofKind(manifests, 'Deployment'), ...ofKind(manifests, 'Job')];
      const secretShaped = pods.flatMap((pod) => envOf(pod).filter((variable) => secretLikeName.test(variable.name)).map((variable) => ({ pod: pod.metadata.name, variable })));
      // auth's and webhooks' current and previous keys, the back-office's and the dashboard's, and the Jobs' secretEnv.
      expect(secretShaped.length).toBeGreaterThanOrEqual(8);
      for (const { pod, variable } of secretShaped) {
        expect([pod, variable.name, variable.value, variable.valueFrom?.secretKeyRef?.key]).toEqual([pod, variable.name, undefined, expect.any(String)]);
      }
      for (const configMap of ofKind(manifests, 'ConfigMap')) {
        expect([configMap.metadata.name, Object.keys(configMap.data ?? {}).filter((key) => secretLikeName.test(key))]).toEqual([configMap.metadata.name, []]);
      }
    });

    it('then every object is valid against the Kubernetes schemas', () => {
      expect(invalidManifests(manifests)).toEqual([]);
    });
  });

  it.each([
    // The previous keys as plain settings: a ConfigMap and the migration Job's inline env.
    ['the previous webhook-sealing key is in the webhooks service’s env', ['--set-string', 'services.webhooks.env.WEBHOOK_SECRET_SEALING_KEY_PREVIOUS=c2VjcmV0']],
    ['the previous key-encryption key is in auth’s env', ['--set-string', 'services.auth.env.AUTH_KEY_ENCRYPTION_KEY_PREVIOUS=c2VjcmV0']],
    ['the previous webhook-sealing key is a global extraEnv value', ['--set', 'extraEnv[0].name=WEBHOOK_SECRET_SEALING_KEY_PREVIOUS', '--set-string', 'extraEnv[0].value=c2VjcmV0']],
    ['the previous key-encryption key is auth’s extraEnv, even from a Secret', ['--set', 'services.auth.extraEnv[0].name=AUTH_KEY_ENCRYPTION_KEY_PREVIOUS', '--set', 'services.auth.extraEnv[0].valueFrom.secretKeyRef.name=old', '--set', 'services.auth.extraEnv[0].valueFrom.secretKeyRef.key=k']],
    // Every name shaped like a secret.
    ['an env name ends in _SECRET', ['--set-string', 'services.wallet.env.PARTNER_API_SECRET=s']],
    ['an env name ends in _PASSWORD', ['--set-string', 'services.dashboard.env.SMTP_PASSWORD=s']],
    ['an env name ends in _KEY', ['--set-string', 'services.quotes.env.FX_PROVIDER_KEY=s']],
    ['an env name ends in _KEY_PREVIOUS', ['--set-string', 'services.quotes.env.FX_PROVIDER_KEY_PREVIOUS=s']],
    ['an extraEnv name ends in _password, lower case', ['--set', 'services.wallet.extraEnv[0].name=db_password', '--set-string', 'services.wallet.extraEnv[0].value=s']],
    ['a global extraEnv name ends in _Secret', ['--set', 'extraEnv[0].name=Api_Secret', '--set-string', 'extraEnv[0].value=s']],
    // The budget's own setting stays the chart's.
    ['DATABASE_POOL_MAX is in a service’s env', ['--set-string', 'services.wallet.env.DATABASE_POOL_MAX=50']],
    ['DATABASE_POOL_MAX is an extraEnv entry', ['--set', 'extraEnv[0].name=DATABASE_POOL_MAX', '--set-string', 'extraEnv[0].value=50']],
    ['the gateway, which has no database, is given a pool', ['--set', 'services.gateway.databasePoolMax=4']],
    ['a pool is empty', ['--set', 'services.wallet.databasePoolMax=0']],
    ['a pool is not a whole number', ['--set-string', 'services.wallet.databasePoolMax=many']],
    ['database has an unknown key (maxConnection)', ['--set', 'database.maxConnection=200']],
    ['database.reservedConnections is negative', ['--set', 'database.reservedConnections=-1']],
    ['a previous key’s secretRef has no key', ['--set', 'secretRefs.WEBHOOK_SECRET_SEALING_KEY_PREVIOUS.secretName=old']],
  ])('when %s, then the schema rejects the values', (_case, extra) => {
    const result = helmTemplate('production', extra);
    expect(result.stderr).toContain("values don't meet the specifications of the schema");
    expect(result.status).not.toBe(0);
  });

  it('when secretRefs names the Redis Sentinels’ password, then exactly the Deployments that read Redis get it by secretKeyRef, and no ConfigMap or Job names it', () => {
    const manifests = render('production', ['--set', 'secretRefs.REDIS_SENTINEL_PASSWORD.secretName=pwa-redis-sentinel', '--set', 'secretRefs.REDIS_SENTINEL_PASSWORD.key=password']);
    const readers = ofKind(manifests, 'Deployment')
      .filter((deployment) => envOf(deployment).some((variable) => variable.name === 'REDIS_SENTINEL_PASSWORD'))
      .map((deployment) => [component(deployment) ?? '', envOf(deployment).find((variable) => variable.name === 'REDIS_SENTINEL_PASSWORD')] as const)
      .sort(([left], [right]) => left.localeCompare(right));
    const expected = { name: 'REDIS_SENTINEL_PASSWORD', valueFrom: { secretKeyRef: { name: 'pwa-redis-sentinel', key: 'password' } } };
    expect(readers).toEqual([
      ['backoffice', expected],
      ['dashboard', expected],
      ['gateway', expected],
    ]);
    for (const manifest of [...ofKind(manifests, 'ConfigMap'), ...ofKind(manifests, 'Job')]) expect([manifest.metadata.name, JSON.stringify(manifest).includes('REDIS_SENTINEL_PASSWORD')]).toEqual([manifest.metadata.name, false]);
    expect(invalidManifests(manifests)).toEqual([]);
  });

  it('when a service has a RabbitMQ credential of its own (amqpSecretRef), then its Deployment reads AMQP_URL from it and the others keep the shared one', () => {
    const manifests = render('production', ['--set', 'services.auth.amqpSecretRef.secretName=pwa-amqp-auth', '--set', 'services.auth.amqpSecretRef.key=AMQP_URL', '--set-string', 'extraEnv[0].name=AMQP_HOSTS', '--set-string', 'extraEnv[0].value=rabbit-0:5672\\,rabbit-1:5672']);
    const amqpOf = (deployment: Manifest) => envOf(deployment).find((variable) => variable.name === 'AMQP_URL')?.valueFrom?.secretKeyRef?.name;
    const users = Object.fromEntries(ofKind(manifests, 'Deployment').filter((deployment) => amqpOf(deployment) !== undefined).map((deployment) => [component(deployment), amqpOf(deployment)]));
    expect(users.auth).toBe('pwa-amqp-auth');
    const others = Object.entries(users).filter(([service]) => service !== 'auth');
    expect(others.length).toBeGreaterThanOrEqual(4);
    for (const [service, secretName] of others) expect([service, secretName]).toEqual([service, 'partner-wallet-production-amqp']);
    expect(envOf(one(manifests, 'Deployment', 'auth')).find((variable) => variable.name === 'AMQP_HOSTS')).toEqual({ name: 'AMQP_HOSTS', value: 'rabbit-0:5672,rabbit-1:5672' });
    expect(invalidManifests(manifests)).toEqual([]);
    const quotes = helmTemplate('production', ['--set', 'services.quotes.amqpSecretRef.secretName=pwa-amqp-quotes', '--set', 'services.quotes.amqpSecretRef.key=AMQP_URL']);
    expect([quotes.status === 0, quotes.stderr]).toEqual([false, expect.stringContaining('services.quotes.amqpSecretRef is set but AMQP_URL is not in its secretEnv')]);
  });

  it('when a plain setting merely contains _KEY_ or TOKEN (REDIS_KEY_PREFIX, TOKEN_TTL_SECONDS), then the schema admits it into the ConfigMap', () => {
    const manifests = render('production', ['--set-string', 'services.backoffice.env.REDIS_KEY_PREFIX=pwa-bo:', '--set-string', 'services.auth.env.TOKEN_TTL_SECONDS=900']);
    expect(one(manifests, 'ConfigMap', 'backoffice').data?.REDIS_KEY_PREFIX).toBe('pwa-bo:');
    expect(one(manifests, 'ConfigMap', 'auth').data?.TOKEN_TTL_SECONDS).toBe('900');
  });
});

describe('deploy/helm/partner-wallet: the PostgreSQL connection budget', () => {
  it.each(['default', 'production', 'sandbox'])(
    'when rendered with the %s values, then each service’s pool is DATABASE_POOL_MAX in its ConfigMap, and the pools at the maximum replicas plus one, and the migration Jobs, fit within maxConnections - reservedConnections',
    (environment) => {
      const manifests = render(environment);
      const defaults = chartValues('default');
      const own = environment === 'default' ? {} : chartValues(environment);
      const limit = (own.database?.maxConnections ?? defaults.database!.maxConnections!) - (own.database?.reservedConnections ?? defaults.database!.reservedConnections!);
      const budget = budgetOf(manifests);
      expect(budget.shares.map((share) => share.service).sort()).toEqual(databaseServices);
      expect(one(manifests, 'ConfigMap', 'gateway').data).not.toHaveProperty('DATABASE_POOL_MAX');
      for (const share of budget.shares) expect([share.service, share.surge, share.poolMax]).toEqual([share.service, 1, expect.any(Number)]);
      expect(budget.hookConnections).toBe(8);
      expect(budget.total).toBeLessThanOrEqual(limit);
      expect(invalidManifests(manifests)).toEqual([]);
    },
  );

  it('when rendered with values-production.yaml, then the sum is the one its comments and docs/connection-budget.md state: 215 of 280', () => {
    const budget = budgetOf(render('production'));
    expect(Object.fromEntries(budget.shares.map((share) => [share.service, (share.pods + share.surge) * share.poolMax]))).toEqual({
      auth: 28, wallet: 45, quotes: 21, collections: 28, disbursements: 28, webhooks: 28, backoffice: 8, dashboard: 21,
    });
    expect(budget.total).toBe(215);
    expect(budgetOf(render('default')).total).toBe(86);
  });

  it('when a service’s databasePoolMax is raised, then its ConfigMap (its pods’ environment) carries it and its share grows by its pods plus one times the difference', () => {
    const manifests = render('production', ['--set', 'services.wallet.databasePoolMax=7']);
    expect(one(manifests, 'ConfigMap', 'wallet').data?.DATABASE_POOL_MAX).toBe('7');
    expect(budgetOf(manifests).total).toBe(215 + 9 * 2);
  });

  const highReplicas = valuesFile(`
services:
  wallet:
    autoscaling: { enabled: true, minReplicas: 3, maxReplicas: 40, targetCPUUtilizationPercentage: 65 }
  collections:
    autoscaling: { enabled: false, minReplicas: 2, maxReplicas: 6, targetCPUUtilizationPercentage: 65 }
    replicas: 12
`);

  it('when a values file lets the wallet scale to 40 and runs 12 collections pods, then the render fails naming the sum, the limit and each service’s share', () => {
    const result = helmTemplate('production', ['-f', highReplicas]);
    expect(result.status).not.toBe(0);
    // 215, the wallet's 45 becoming (40 + 1) x 5 = 205 and collections' 28 becoming (12 + 1) x 4 = 52.
    expect(result.stderr).toContain('database connection budget exceeded: at their maximum replicas the services may open 399 PostgreSQL connections');
    expect(result.stderr).toContain('more than the 280 that database.maxConnections (300) minus database.reservedConnections (20) leaves them');
    for (const share of [
      'auth (maxReplicas 6 + 1) x pool 4 = 28',
      'backoffice (maxReplicas 3 + 1) x pool 2 = 8',
      'collections (replicas 12 + 1) x pool 4 = 52',
      'dashboard (maxReplicas 6 + 1) x pool 3 = 21',
      'disbursements (maxReplicas 6 + 1) x pool 4 = 28',
      'quotes (maxReplicas 6 + 1) x pool 3 = 21',
      'wallet (maxReplicas 40 + 1) x pool 5 = 205',
      'webhooks (maxReplicas 6 + 1) x pool 4 = 28',
      'hook Jobs 8 (one connection each)',
    ]) expect(result.stderr).toContain(share);
    expect(result.stderr).toContain('docs/connection-budget.md');
  });

  it('when the same values state a server with room for them, or drop the migration Jobs, then the sum follows', () => {
    expect(helmTemplate('production', ['-f', highReplicas, '--set', 'database.maxConnections=420']).status).toBe(0);
    const noJobs = helmTemplate('production', ['-f', highReplicas, '--set', 'database.maxConnections=410', '--set', 'migrations.enabled=false']);
    expect(noJobs.stderr).toContain('may open 391 PostgreSQL connections');
    expect(noJobs.stderr).toContain('hook Jobs 0');
  });

  it('when the defaults meet a server that allows fewer connections than PostgreSQL’s default, then the render fails too', () => {
    const result = helmTemplate('default', ['--set', 'database.maxConnections=50']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('may open 86 PostgreSQL connections, more than the 40 that database.maxConnections (50)');
  });

  it('when PgBouncer sits in front (database.pooler.enabled), then the same values render, and every object is valid', () => {
    const result = helmTemplate('production', ['-f', highReplicas, '--set', 'database.pooler.enabled=true']);
    expect(result.stderr).not.toContain('Error');
    expect(result.status).toBe(0);
    const manifests = parseManifests<Manifest>(result.stdout);
    expect(one(manifests, 'HorizontalPodAutoscaler', 'wallet').spec?.maxReplicas).toBe(40);
    expect(budgetOf(manifests).total).toBe(399);
    expect(invalidManifests(manifests)).toEqual([]);
    // The migration Jobs migrate; the pods only verify, holding no session lock through the pooler.
    const plainEnvs = ofKind(manifests, 'ConfigMap').filter((configMap) => configMap.data?.DATABASE_POOL_MAX !== undefined);
    expect(plainEnvs).toHaveLength(8);
    for (const configMap of plainEnvs) expect([configMap.metadata.name, configMap.data?.MIGRATIONS_AT_BOOT]).toEqual([configMap.metadata.name, 'verify']);
  });

  it('when the migration Jobs are off, then the pods migrate at boot themselves', () => {
    const manifests = parseManifests<Manifest>(helmTemplate('production', ['--set', 'migrations.enabled=false']).stdout);
    expect(ofKind(manifests, 'Job').filter((job) => job.metadata.name.endsWith('-migrate'))).toEqual([]);
    const migrating = ofKind(manifests, 'ConfigMap').flatMap((configMap) => (configMap.data?.MIGRATIONS_AT_BOOT === undefined ? [] : [configMap.data.MIGRATIONS_AT_BOOT]));
    expect(migrating).toEqual(Array.from({ length: 8 }, () => 'apply'));
  });

  it('when helm lint --strict checks the production values, then they pass, and it reports a budget overrun', () => {
    const production = ['-f', valuesPath('production')];
    const clean = runHelm(['lint', chartDirectory, '--strict', ...production]);
    expect(clean.status).toBe(0);
    expect(clean.stdout + clean.stderr).not.toContain('connection budget');
    // helm 3.6 fails the lint; later releases lint a template's `fail` leniently and print it as [INFO]
    // (helm template, install and upgrade still fail, above).
    const overrun = runHelm(['lint', chartDirectory, '--strict', ...production, '-f', highReplicas]);
    expect(overrun.stdout + overrun.stderr).toContain('database connection budget exceeded: at their maximum replicas the services may open 399 PostgreSQL connections');
  });

  describe('NOTES.txt', () => {
    // helm template prints no notes: a copy of the chart renders NOTES.txt into a ConfigMap with tpl.
    const copy = path.join(temporaryDirectory('pwa-chart-'), 'partner-wallet');
    cpSync(chartDirectory, copy, { recursive: true, dereference: true });
    cpSync(path.join(copy, 'templates/NOTES.txt'), path.join(copy, 'files/notes.txt'));
    writeFileSync(path.join(copy, 'templates/zz-notes.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n  notes: {{ tpl (.Files.Get "files/notes.txt") . | quote }}\n');
    const notes = (environment: string, extra: string[] = []) => {
      const result = helmTemplate(environment, ['--show-only', 'templates/zz-notes.yaml', ...extra], copy);
      expect(result.stderr).not.toContain('Error');
      return (parseYaml(result.stdout) as { data: { notes: string } }).data.notes.replace(/\s+/g, ' ');
    };

    it('when installed, then the notes print the budget: the sum against the limit, and each service’s share', () => {
      expect(notes('default')).toContain('PostgreSQL connections at the maximum replicas, plus one rolling-update pod each, and the hook Jobs: 86 of the 90 that database.maxConnections (100) minus database.reservedConnections (10) leaves.');
      const production = notes('production');
      expect(production).toContain('215 of the 280 that database.maxConnections (300) minus database.reservedConnections (20) leaves.');
      expect(production).toContain('Shares: auth (maxReplicas 6 + 1) x pool 4 = 28, backoffice (maxReplicas 3 + 1) x pool 2 = 8,');
      expect(production).toContain('wallet (maxReplicas 8 + 1) x pool 5 = 45, webhooks (maxReplicas 6 + 1) x pool 4 = 28; hook Jobs 8 (one connection each).');
    });

    it('when PgBouncer sits in front, then the notes print the pools’ sum as its client connections and the limit its server pools must keep', () => {
      const pooled = notes('production', ['-f', highReplicas, '--set', 'database.pooler.enabled=true']);
      expect(pooled).toContain('PostgreSQL through PgBouncer (database.pooler.enabled)');
      expect(pooled).toContain("the services' pools may open 391 client connections to PgBouncer");
      expect(pooled).toContain('the hook Jobs 8 direct ones');
      expect(pooled).toContain('within the 280 that database.maxConnections (300)');
    });
  });
});

describe('deploy/helm/partner-wallet: the backup CronJob', () => {
  it('when backup is off (the default), then nothing of it renders', () => {
    const manifests = render('production');
    expect(ofKind(manifests, 'CronJob')).toEqual([]);
    expect(ofKind(manifests, 'NetworkPolicy').filter((policy) => component(policy) === 'backup')).toEqual([]);
  });

  it('when backup is on with a claim, then a CronJob runs backup-database with the backup image as the administrator’s URL from its Secret, into the claim, with egress to PostgreSQL only, and every object is valid', () => {
    const manifests = render('production', ['--set', 'backup.enabled=true', '--set', 'backup.existingClaim=pwa-backups', '--set', 'backup.keep=7']);
    const [cronJob] = ofKind(manifests, 'CronJob');
    const spec = cronJob?.spec as { schedule: string; concurrencyPolicy: string; jobTemplate: { spec: { template: PodTemplate } } };
    expect([spec.schedule, spec.concurrencyPolicy]).toEqual(['17 2 * * *', 'Forbid']);
    const pod = spec.jobTemplate.spec.template.spec as PodTemplate['spec'] & { volumes: { name: string; persistentVolumeClaim?: { claimName: string } }[] };
    const [container] = pod.containers;
    expect(container?.image).toMatch(/^registry\.example\.com\/partner-wallet-api:.+-backup$/);
    expect(container?.command?.join(' ')).toContain('node libs/runtime/dist/database-backup/main.js backup-database --file "$file"');
    expect(container?.env).toEqual(expect.arrayContaining([
      { name: 'BACKUP_KEEP', value: '7' },
      { name: 'ADMIN_DATABASE_URL', valueFrom: { secretKeyRef: { name: 'partner-wallet-production-database-admin', key: 'ADMIN_DATABASE_URL' } } },
    ]));
    expect(pod.volumes.find((volume) => volume.name === 'backups')?.persistentVolumeClaim).toEqual({ claimName: 'pwa-backups' });
    const policy = ofKind(manifests, 'NetworkPolicy').find((candidate) => component(candidate) === 'backup');
    expect(JSON.stringify(policy?.spec)).toContain('"ingress":[]');
    expect(invalidManifests(manifests)).toEqual([]);
  });

  it('when backup is on without a claim, then the render fails saying what to create', () => {
    const result = helmTemplate('production', ['--set', 'backup.enabled=true']);
    expect([result.status === 0, result.stderr]).toEqual([false, expect.stringContaining('backup.enabled needs backup.existingClaim')]);
  });
});
