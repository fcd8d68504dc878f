// Validates every manifest that deploy/helm/partner-wallet renders against the JSON schema of its
// apiVersion/kind: the Kubernetes OpenAPI schemas that `kubernetes-models` ships, the Prometheus
// Operator CRD schemas (ServiceMonitor, PrometheusRule) of `@kubernetes-models/prometheus-operator`,
// and for the Gateway API's HTTPRoute (no model package of it is installed) the openAPIV3Schema of
// its v1.6.1 CRD, kept in test/deploy/fixtures and checked with ajv; its CEL rules
// (x-kubernetes-validations) are the API server's alone. A manifest whose apiVersion/kind has no
// schema fails; it is never skipped.
//
// Limit: the schemas check types, required fields, enums and formats, but the Kubernetes OpenAPI
// does not forbid unknown fields (only the API server's strict field validation does), so a
// misspelt optional field is not caught here. Nor do they check that a port named by a probe, a
// Service, a NetworkPolicy, a ServiceMonitor or an Ingress exists where it points (the API server
// does not either: a probe or a scrape would just fail), so danglingPortNames below does.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as prometheusOperatorModels from '@kubernetes-models/prometheus-operator';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import * as kubernetesModels from 'kubernetes-models';
import { gatewayApi, monitoringApi, renderChart, repoRoot } from '../support/helm-chart';

type Manifest = Record<string, unknown> & { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } };

const render = (environment: string, extra: string[] = [], apiVersions?: readonly string[]): Manifest[] => renderChart<Manifest>(environment, extra, { apiVersions });
const fixtures = path.join(repoRoot, 'test/deploy/fixtures');
const everyOptionValues = path.join(fixtures, 'every-option-values.yaml');

interface ModelClass {
  readonly apiVersion: string;
  readonly kind: string;
  new (data: Record<string, unknown>): { validate(): void };
}
interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

function isModelClass(value: unknown): value is ModelClass {
  if (typeof value !== 'function') return false;
  const candidate = value as unknown as Partial<ModelClass> & { prototype?: { validate?: unknown } };
  return typeof candidate.apiVersion === 'string' && typeof candidate.kind === 'string' && typeof candidate.prototype?.validate === 'function';
}

const gvk = (apiVersion: string, kind: string) => `${apiVersion} ${kind}`;

// Walks a package's namespaces (group -> version -> model) and indexes every model by apiVersion/kind.
function collectModels(namespace: unknown, keep: (apiVersion: string) => boolean, into: Map<string, ModelClass>, depth = 0): Map<string, ModelClass> {
  if (depth > 3 || namespace === null || typeof namespace !== 'object') return into;
  for (const value of Object.values(namespace)) {
    if (isModelClass(value)) {
      if (keep(value.apiVersion)) into.set(gvk(value.apiVersion, value.kind), value);
    } else {
      collectModels(value, keep, into, depth + 1);
    }
  }
  return into;
}

// kubernetes-models unites the schemas of several Kubernetes releases; its alpha/beta versions are
// APIs that Kubernetes 1.29 no longer serves (extensions/v1beta1, policy/v1beta1, autoscaling/v2beta2,
// ...), so only GA versions of the built-in APIs count as having a schema.
const isGa = (apiVersion: string) => /^(?:[a-z0-9.-]+\/)?v\d+$/.test(apiVersion);
const models = collectModels(prometheusOperatorModels, () => true, collectModels(kubernetesModels, isGa, new Map()));

// The Gateway API's HTTPRoute: its CRD's openAPIV3Schema (Kubernetes formats int32/int64 added to ajv's).
const crdAjv = new Ajv({ strict: false, allErrors: true });
addFormats(crdAjv);
crdAjv.addFormat('int32', { type: 'number', validate: (value: number) => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31 });
crdAjv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) });
const crdValidators = new Map([
  [gvk('gateway.networking.k8s.io/v1', 'HTTPRoute'), crdAjv.compile(JSON.parse(readFileSync(path.join(fixtures, 'gateway-api-v1.6.1-httproute-v1.schema.json'), 'utf8')) as object)],
]);
const describeAjvError = (entry: ErrorObject) => `${entry.instancePath || '/'} ${entry.message ?? entry.keyword} ${JSON.stringify(entry.params)}`;

const describeManifest = (manifest: Manifest) =>
  `${typeof manifest.kind === 'string' ? manifest.kind : '<no kind>'}/${typeof manifest.metadata?.name === 'string' ? manifest.metadata.name : '<no name>'}`;

/** The schema errors of one manifest: empty when it is valid, one entry when its kind has no schema. */
function schemaErrors(manifest: Manifest): string[] {
  const { apiVersion, kind } = manifest;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return ['has no apiVersion/kind'];
  const crdValidator = crdValidators.get(gvk(apiVersion, kind));
  if (crdValidator) return crdValidator(manifest) ? [] : (crdValidator.errors ?? []).map(describeAjvError);
  const Model = models.get(gvk(apiVersion, kind));
  if (!Model) return [`no schema for apiVersion ${apiVersion} kind ${kind}`];
  try {
    new Model(manifest).validate();
    return [];
  } catch (error) {
    const errors = (error as { errors?: unknown }).errors;
    if (!Array.isArray(errors)) throw error;
    return (errors as SchemaError[]).map(
      (entry) => `${entry.instancePath || '/'} ${entry.message ?? entry.keyword}${entry.params ? ` ${JSON.stringify(entry.params)}` : ''}`,
    );
  }
}

type Labels = Record<string, string>;
interface NamedPorts {
  ports?: { name?: string; port?: string | number; targetPort?: string | number }[];
}
interface Probe {
  httpGet?: { port?: string | number };
  tcpSocket?: { port?: string | number };
}
interface PodContainer extends NamedPorts {
  name: string;
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
}
interface PodTemplate {
  metadata?: { labels?: Labels };
  spec: { containers: PodContainer[] };
}

const selects = (selector: Labels | undefined, labels: Labels | undefined) =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels?.[key] === value);
const specOf = <T>(manifest: Manifest) => manifest.spec as T;
const labelsOf = (manifest: Manifest) => (manifest.metadata as { labels?: Labels } | undefined)?.labels;

/**
 * Every port named (not numbered) by a container's probe, a Service's targetPort, a NetworkPolicy's
 * ingress rule, a ServiceMonitor's endpoint or an Ingress's backend that the containers or Services
 * it points at do not declare, as "<kind>/<name>: <what> -> <port>".
 */
function danglingPortNames(manifests: Manifest[]): string[] {
  const dangling: string[] = [];
  const pods = manifests
    .filter((manifest) => manifest.kind === 'Deployment' || manifest.kind === 'Job')
    .map((manifest) => ({ manifest, template: specOf<{ template: PodTemplate }>(manifest).template }));
  const portNamesOf = (template: PodTemplate) => new Set(template.spec.containers.flatMap((container) => (container.ports ?? []).map((port) => port.name)));
  const services = manifests.filter((manifest) => manifest.kind === 'Service');
  const servicePortNames = (service: Manifest) => new Set((specOf<NamedPorts>(service).ports ?? []).map((port) => port.name));
  /** A named port must be declared by every pod template the selector picks, and the selector must pick one. */
  const checkPods = (manifest: Manifest, what: string, selector: Labels | undefined, port: string) => {
    const picked = pods.filter((pod) => selects(selector, pod.template.metadata?.labels));
    if (picked.length === 0) dangling.push(`${describeManifest(manifest)}: ${what} -> ${port} (selects no pod)`);
    for (const pod of picked) if (!portNamesOf(pod.template).has(port)) dangling.push(`${describeManifest(manifest)}: ${what} -> ${port} (not a port of ${describeManifest(pod.manifest)})`);
  };

  for (const { manifest, template } of pods) {
    for (const container of template.spec.containers) {
      const names = new Set((container.ports ?? []).map((port) => port.name));
      for (const kind of ['startupProbe', 'livenessProbe', 'readinessProbe'] as const) {
        const port = container[kind]?.httpGet?.port ?? container[kind]?.tcpSocket?.port;
        if (typeof port === 'string' && !names.has(port)) dangling.push(`${describeManifest(manifest)}: ${container.name} ${kind} -> ${port}`);
      }
    }
  }
  for (const service of services) {
    const spec = specOf<NamedPorts & { selector?: Labels }>(service);
    for (const port of spec.ports ?? []) if (typeof port.targetPort === 'string') checkPods(service, `port ${port.name}`, spec.selector, port.targetPort);
  }
  for (const policy of manifests.filter((manifest) => manifest.kind === 'NetworkPolicy')) {
    const spec = specOf<{ podSelector: { matchLabels?: Labels }; ingress?: NamedPorts[] }>(policy);
    for (const rule of spec.ingress ?? []) {
      for (const port of rule.ports ?? []) if (typeof port.port === 'string') checkPods(policy, 'ingress', spec.podSelector.matchLabels, port.port);
    }
  }
  for (const monitor of manifests.filter((manifest) => manifest.kind === 'ServiceMonitor')) {
    const spec = specOf<{ selector: { matchLabels?: Labels }; endpoints: { port?: string }[] }>(monitor);
    const picked = services.filter((service) => selects(spec.selector.matchLabels, labelsOf(service)));
    for (const endpoint of spec.endpoints) {
      if (endpoint.port === undefined) continue;
      if (picked.length === 0) dangling.push(`${describeManifest(monitor)}: endpoint -> ${endpoint.port} (selects no Service)`);
      for (const service of picked) if (!servicePortNames(service).has(endpoint.port)) dangling.push(`${describeManifest(monitor)}: endpoint -> ${endpoint.port} (not a port of ${describeManifest(service)})`);
    }
  }
  for (const route of manifests.filter((manifest) => manifest.kind === 'HTTPRoute')) {
    const rules = specOf<{ rules?: { backendRefs?: { name: string; port?: number }[] }[] }>(route).rules ?? [];
    for (const backend of rules.flatMap((rule) => rule.backendRefs ?? [])) {
      const service = services.find((candidate) => candidate.metadata?.name === backend.name);
      const ports = new Set((service ? (specOf<NamedPorts>(service).ports ?? []) : []).map((port) => port.port));
      if (!ports.has(backend.port)) dangling.push(`${describeManifest(route)}: backendRef ${backend.name} -> ${String(backend.port)}`);
    }
  }
  for (const ingress of manifests.filter((manifest) => manifest.kind === 'Ingress')) {
    const rules = specOf<{ rules?: { http?: { paths: { backend: { service?: { name: string; port: { name?: string } } } }[] } }[] }>(ingress).rules ?? [];
    for (const backend of rules.flatMap((rule) => rule.http?.paths ?? []).map((path) => path.backend.service)) {
      if (backend?.port.name === undefined) continue;
      const service = services.find((candidate) => candidate.metadata?.name === backend.name);
      if (!service || !servicePortNames(service).has(backend.port.name)) dangling.push(`${describeManifest(ingress)}: backend ${backend.name} -> ${backend.port.name}`);
    }
  }
  return dangling;
}

/** Every container's volumeMount that names no volume of its pod, as "<kind>/<name>: <container> -> <volume>". */
function danglingVolumeMounts(manifests: Manifest[]): string[] {
  const dangling: string[] = [];
  for (const workload of manifests.filter((manifest) => manifest.kind === 'Deployment' || manifest.kind === 'Job')) {
    const spec = specOf<{ template: { spec: { volumes?: { name: string }[]; containers: { name: string; volumeMounts?: { name: string }[] }[] } } }>(workload).template.spec;
    const volumes = new Set((spec.volumes ?? []).map((volume) => volume.name));
    for (const container of spec.containers) {
      for (const mount of container.volumeMounts ?? []) if (!volumes.has(mount.name)) dangling.push(`${describeManifest(workload)}: ${container.name} -> ${mount.name}`);
    }
  }
  return dangling;
}

function invalidManifests(manifests: Manifest[]): { manifest: string; errors: string[] }[] {
  return manifests
    .map((manifest) => ({ manifest: describeManifest(manifest), errors: schemaErrors(manifest) }))
    .filter((result) => result.errors.length > 0);
}

// The sandbox runs every service from one replica, so it has no PodDisruptionBudget (see pdb.yaml).
const sandboxKinds = ['Deployment', 'Service', 'ServiceAccount', 'ConfigMap', 'HorizontalPodAutoscaler', 'NetworkPolicy', 'Job', 'ServiceMonitor', 'PrometheusRule'];
const renderedKinds = [...sandboxKinds, 'PodDisruptionBudget'];

// Every value an SRE adapts the chart with, set at once (global and per service).
const adapted = [
  '--set', `image.digest=sha256:${'ab'.repeat(32)}`,
  '--set', 'serviceAccount.name=pwa-api',
  '--set', 'serviceAccount.annotations.iam\\.gke\\.io/gcp-service-account=pwa@project.iam.gserviceaccount.com',
  '--set', 'serviceAccount.automountServiceAccountToken=true',
  '--set', 'priorityClassName=pwa-high',
  '--set', 'nodeSelector.pool=api',
  '--set', 'tolerations[0].key=dedicated',
  '--set', 'tolerations[0].operator=Equal',
  '--set', 'tolerations[0].value=pwa',
  '--set', 'tolerations[0].effect=NoSchedule',
  '--set', 'tolerations[1].operator=Exists',
  '--set', 'tolerations[1].effect=NoExecute',
  '--set', 'tolerations[1].tolerationSeconds=30',
  '--set', 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key=zone',
  '--set', 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator=In',
  '--set', 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]=a',
  '--set', 'services.wallet.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight=100',
  '--set', 'services.wallet.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey=topology.kubernetes.io/zone',
  '--set', 'services.wallet.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector.matchLabels.app\\.kubernetes\\.io/component=wallet',
  '--set', 'services.wallet.priorityClassName=pwa-critical',
  '--set', 'services.wallet.nodeSelector.pool=ledger',
  '--set', 'podLabels.team=payments',
  '--set', 'services.auth.podLabels.tier=identity',
  '--set', 'podAnnotations.example\\.com/owner=payments',
  '--set', 'services.webhooks.podAnnotations.example\\.com/egress=internet',
  '--set', 'migrations.lockTimeoutMs=10000',
  '--set', 'prometheusRule.runbookBaseUrl=https://wiki.example/pwa/runbooks.md',
  '--set', 'databaseRoles.provision=true',
  '--set', 'databaseRoles.exclude[0]=webhooks',
  '--set', 'services.wallet.database.secretName=ledger-database',
  '--set', 'services.wallet.database.runtimeKey=runtime-url',
  '--set', 'services.wallet.database.ownerKey=owner-url',
];

const withoutMonitoring = (kinds: string[]) => kinds.filter((kind) => kind !== 'ServiceMonitor' && kind !== 'PrometheusRule');

/** [label, environment, extra helm arguments, the kinds expected, the APIs the cluster serves (default: the Prometheus Operator's)]. */
const variants: [string, string, string[], string[], (readonly string[])?][] = [
  ['values-sandbox.yaml', 'sandbox', [], sandboxKinds],
  ['values-sandbox.yaml on a cluster without the Prometheus Operator (no ServiceMonitor, no PrometheusRule)', 'sandbox', [], withoutMonitoring(sandboxKinds), []],
  [
    'values-production.yaml with every key that adapts the chart to a cluster (fixtures/every-option-values.yaml), on a cluster serving the Prometheus Operator and the Gateway API',
    'production',
    ['-f', everyOptionValues],
    [...renderedKinds, 'Ingress', 'HTTPRoute'],
    [monitoringApi, gatewayApi],
  ],
  [
    'values-production.yaml with every key that adapts the chart to a cluster, on a cluster serving neither (no ServiceMonitor, PrometheusRule nor HTTPRoute)',
    'production',
    ['-f', everyOptionValues],
    [...withoutMonitoring(renderedKinds), 'Ingress'],
    [],
  ],
  ['values-production.yaml', 'production', [], renderedKinds],
  ['values-production.yaml with tracing.enabled=true', 'production', ['--set', 'tracing.enabled=true'], renderedKinds],
  [
    'values-sandbox.yaml with the other template branches (TLS by proxy, fixed replicas, pull secrets)',
    'sandbox',
    ['--set', 'gateway.tlsMode=proxy', '--set', 'services.gateway.autoscaling.enabled=false', '--set', 'services.gateway.replicas=2', '--set', 'imagePullSecrets[0].name=registry-credentials'],
    renderedKinds,
  ],
  ['values-production.yaml with every adaptable value set (digest, ServiceAccount, placement, pod metadata, per service)', 'production', adapted, renderedKinds],
  ['values-production.yaml with an existing ServiceAccount (serviceAccount.create=false)', 'production', ['--set', 'serviceAccount.create=false', '--set', 'serviceAccount.name=platform-managed'], renderedKinds.filter((kind) => kind !== 'ServiceAccount')],
  ['values-production.yaml with the database-roles hook (databaseRoles.provision=true)', 'production', ['--set', 'databaseRoles.provision=true'], renderedKinds],
  ['values-sandbox.yaml with the database-roles hook and no migration Jobs', 'sandbox', ['--set', 'databaseRoles.provision=true', '--set', 'migrations.enabled=false'], sandboxKinds],
  [
    'values-production.yaml with the back-office behind its internal ingress',
    'production',
    [
      '--set', 'backoffice.ingress.enabled=true',
      '--set', 'backoffice.ingress.className=internal-nginx',
      '--set', 'networkPolicy.backofficeIngressFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=ingress-internal',
    ],
    [...renderedKinds, 'Ingress'],
  ],
  ['values-production.yaml with the back-office terminating TLS itself', 'production', ['--set', 'backoffice.tlsMode=terminate'], renderedKinds],
  [
    'values-production.yaml with the partner dashboard behind its public ingress, e-mailing invitations through a relay',
    'production',
    [
      '--set', 'dashboard.ingress.enabled=true',
      '--set', 'dashboard.ingress.className=public-nginx',
      '--set-string', 'dashboard.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size=3m',
      '--set', 'networkPolicy.dashboardIngressFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=ingress-public',
      '--set', 'secretRefs.DASHBOARD_SMTP_URL.secretName=partner-wallet-production-dashboard-smtp',
      '--set', 'secretRefs.DASHBOARD_SMTP_URL.key=DASHBOARD_SMTP_URL',
      '--set', 'dashboard.smtp.egressTo[0].ipBlock.cidr=203.0.113.25/32',
    ],
    [...renderedKinds, 'Ingress'],
  ],
  [
    'values-sandbox.yaml with both consoles on their ingresses',
    'sandbox',
    [
      '--set', 'dashboard.ingress.enabled=true',
      '--set', 'dashboard.ingress.className=public-nginx',
      '--set', 'backoffice.ingress.enabled=true',
      '--set', 'backoffice.ingress.className=internal-nginx',
    ],
    [...sandboxKinds, 'Ingress'],
  ],
  ['values-production.yaml with the partner dashboard terminating TLS itself', 'production', ['--set', 'dashboard.tlsMode=terminate'], renderedKinds],
];

describe('rendered manifests of deploy/helm/partner-wallet against the Kubernetes schemas', () => {
  describe.each(variants)('when rendered with %s', (_label, environment, extra, expectedKinds, apiVersions) => {
    const manifests = render(environment, extra, apiVersions);

    it('then it renders exactly the kinds expected for these values', () => {
      expect([...new Set(manifests.map((manifest) => manifest.kind))].sort()).toEqual([...expectedKinds].sort());
    });

    it('then every manifest is valid against the schema of its apiVersion/kind', () => {
      expect(invalidManifests(manifests)).toEqual([]);
    });

    it('then every port named by a probe, a Service, a NetworkPolicy, a ServiceMonitor, an Ingress or an HTTPRoute is declared where it points', () => {
      expect(danglingPortNames(manifests)).toEqual([]);
    });

    it('then every container mounts only volumes of its own pod', () => {
      expect(danglingVolumeMounts(manifests)).toEqual([]);
    });
  });

  describe('the validator itself', () => {
    const sandbox = render('sandbox');
    const deployment = sandbox.find((manifest) => manifest.kind === 'Deployment')!;
    const mutated = (mutate: (copy: any) => void): Manifest => {
      const copy = structuredClone(deployment) as any;
      mutate(copy);
      return copy as Manifest;
    };

    it('accepts the rendered Deployment unchanged', () => {
      expect(deployment).toBeDefined();
      expect(schemaErrors(deployment)).toEqual([]);
    });

    it('rejects a Deployment whose spec.replicas is a string', () => {
      const errors = schemaErrors(mutated((copy) => (copy.spec.replicas = 'three')));
      expect(errors).toEqual([expect.stringMatching(/^\/spec\/replicas must be integer/)]);
    });

    it('rejects a container port whose containerPort is not a number', () => {
      const errors = schemaErrors(mutated((copy) => (copy.spec.template.spec.containers[0].ports[0].containerPort = { number: 8080 })));
      expect(errors).toEqual([expect.stringMatching(/^\/spec\/template\/spec\/containers\/0\/ports\/0\/containerPort must be integer/)]);
    });

    it('rejects a container without its required name', () => {
      const errors = schemaErrors(mutated((copy) => delete copy.spec.template.spec.containers[0].name));
      expect(errors).toEqual([expect.stringMatching(/^\/spec\/template\/spec\/containers\/0 must have required property '?name'?/)]);
    });

    it('rejects a Prometheus Operator resource that breaks its CRD schema', () => {
      const monitor = sandbox.find((manifest) => manifest.kind === 'ServiceMonitor')!;
      const broken = structuredClone(monitor) as any;
      broken.spec.endpoints = { port: 'http' };
      expect(schemaErrors(broken)).toEqual([expect.stringMatching(/^\/spec\/endpoints must be array/)]);
    });

    it('reports a probe, a Service, a NetworkPolicy rule and a ServiceMonitor naming a port the pods do not declare (the dashboard without its internal port)', () => {
      const production = render('production');
      const isDashboard = (manifest: Manifest) => labelsOf(manifest)?.['app.kubernetes.io/component'] === 'dashboard';
      const withoutInternal = production.map((manifest) => {
        if (manifest.kind !== 'Deployment' || !isDashboard(manifest)) return manifest;
        const copy = structuredClone(manifest);
        const container = specOf<{ template: PodTemplate }>(copy).template.spec.containers[0]!;
        container.ports = (container.ports ?? []).filter((port) => port.name !== 'internal');
        return copy;
      });
      expect(danglingPortNames(production)).toEqual([]);
      const dangling = danglingPortNames(withoutInternal);
      expect(dangling).toEqual(
        expect.arrayContaining([
          'Deployment/pwa-partner-wallet-dashboard: dashboard readinessProbe -> internal',
          'Service/pwa-partner-wallet-dashboard: port internal -> internal (not a port of Deployment/pwa-partner-wallet-dashboard)',
          'NetworkPolicy/pwa-partner-wallet-dashboard: ingress -> internal (not a port of Deployment/pwa-partner-wallet-dashboard)',
        ]),
      );
      // A ServiceMonitor on a port its Service lacks.
      const monitor = structuredClone(production.find((manifest) => manifest.kind === 'ServiceMonitor' && isDashboard(manifest))!);
      specOf<{ endpoints: { port?: string }[] }>(monitor).endpoints[0]!.port = 'metrics';
      expect(danglingPortNames(production.map((manifest) => (manifest.kind === 'ServiceMonitor' && isDashboard(manifest) ? monitor : manifest)))).toEqual([
        'ServiceMonitor/pwa-partner-wallet-dashboard: endpoint -> metrics (not a port of Service/pwa-partner-wallet-dashboard)',
      ]);
    });

    it('accepts the rendered HTTPRoutes and rejects one that breaks the Gateway API CRD schema', () => {
      const routes = render('production', ['-f', everyOptionValues], [monitoringApi, gatewayApi]).filter((manifest) => manifest.kind === 'HTTPRoute');
      expect(routes).toHaveLength(3);
      for (const route of routes) expect(schemaErrors(route)).toEqual([]);
      const broken = structuredClone(routes[0]!) as any;
      broken.spec.rules[0].backendRefs[0].port = 'https';
      broken.spec.rules[0].matches[0].path.type = 'Prefix';
      expect(schemaErrors(broken)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^\/spec\/rules\/0\/backendRefs\/0\/port must be integer/), expect.stringMatching(/^\/spec\/rules\/0\/matches\/0\/path\/type must be equal to one of the allowed values/)]),
      );
    });

    it('reports an HTTPRoute on a Service port that does not exist, and a volumeMount of a volume the pod lacks', () => {
      const manifests = render('production', ['-f', everyOptionValues], [monitoringApi, gatewayApi]);
      const route = structuredClone(manifests.find((manifest) => manifest.kind === 'HTTPRoute')!) as any;
      route.spec.rules[0].backendRefs[0].port = 8443;
      expect(danglingPortNames([...manifests.filter((manifest) => manifest.kind !== 'HTTPRoute'), route])).toEqual([`HTTPRoute/${String(route.metadata.name)}: backendRef ${String(route.spec.rules[0].backendRefs[0].name)} -> 8443`]);
      const deployment = structuredClone(manifests.find((manifest) => manifest.kind === 'Deployment')!) as any;
      deployment.spec.template.spec.volumes = deployment.spec.template.spec.volumes.filter((volume: { name: string }) => volume.name !== 'private-ca');
      expect(danglingVolumeMounts([deployment])).toEqual([`Deployment/${String(deployment.metadata.name)}: ${String(deployment.spec.template.spec.containers[0].name)} -> private-ca`]);
    });

    it('fails a manifest whose apiVersion/kind has no schema instead of skipping it', () => {
      expect(invalidManifests([{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }])).toEqual([
        { manifest: 'Widget/w', errors: ['no schema for apiVersion example.com/v1 kind Widget'] },
      ]);
      // An API that Kubernetes 1.29 no longer serves has no schema either.
      const legacy = { ...mutated(() => undefined), apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget' };
      expect(schemaErrors(legacy)).toEqual(['no schema for apiVersion policy/v1beta1 kind PodDisruptionBudget']);
    });
  });
});
