// Validates every manifest that deploy/helm/partner-wallet renders against the JSON schema of its
// apiVersion/kind: the Kubernetes OpenAPI schemas that `kubernetes-models` ships, and the Prometheus
// Operator CRD schemas (ServiceMonitor, PrometheusRule) of `@kubernetes-models/prometheus-operator`.
// A manifest whose apiVersion/kind has no schema fails; it is never skipped.
//
// Limit: the schemas check types, required fields, enums and formats, but the Kubernetes OpenAPI
// does not forbid unknown fields (only the API server's strict field validation does), so a
// misspelt optional field is not caught here. Nor do they check that a port named by a probe, a
// Service, a NetworkPolicy, a ServiceMonitor or an Ingress exists where it points (the API server
// does not either: a probe or a scrape would just fail), so danglingPortNames below does.
import * as prometheusOperatorModels from '@kubernetes-models/prometheus-operator';
import * as kubernetesModels from 'kubernetes-models';
import { renderChart } from '../support/helm-chart';

type Manifest = Record<string, unknown> & { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } };

const render = (environment: string, extra: string[] = []): Manifest[] => renderChart<Manifest>(environment, extra);

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

const describeManifest = (manifest: Manifest) =>
  `${typeof manifest.kind === 'string' ? manifest.kind : '<no kind>'}/${typeof manifest.metadata?.name === 'string' ? manifest.metadata.name : '<no name>'}`;

/** The schema errors of one manifest: empty when it is valid, one entry when its kind has no schema. */
function schemaErrors(manifest: Manifest): string[] {
  const { apiVersion, kind } = manifest;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return ['has no apiVersion/kind'];
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

const variants: [string, string, string[], string[]][] = [
  ['values-sandbox.yaml', 'sandbox', [], sandboxKinds],
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
  describe.each(variants)('when rendered with %s', (_label, environment, extra, expectedKinds) => {
    const manifests = render(environment, extra);

    it('then it renders exactly the kinds expected for these values', () => {
      expect([...new Set(manifests.map((manifest) => manifest.kind))].sort()).toEqual([...expectedKinds].sort());
    });

    it('then every manifest is valid against the schema of its apiVersion/kind', () => {
      expect(invalidManifests(manifests)).toEqual([]);
    });

    it('then every port named by a probe, a Service, a NetworkPolicy, a ServiceMonitor or an Ingress is declared where it points', () => {
      expect(danglingPortNames(manifests)).toEqual([]);
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
