// Checks the Prometheus alert rules (deploy/prometheus/alerts) with promtool: `check rules`,
// `check config` of deploy/prometheus/prometheus.yml (which loads them), and the rule unit tests
// `test rules` of deploy/prometheus/alerts-tests (one <file>.test.yml per rules file), which make
// every alert fire and not fire. Also checks each alert's shape (severity, summary, description, a
// runbook_url whose anchor exists in docs/runbooks.md), that a service whose scrape targets vanish
// is down (absent), and that every dashboard query parses as PromQL. The SLO rules (slo.yml) are
// generated: test/deploy/slo-rules.test.ts checks them against their source. promtool comes from
// Debian's `prometheus` package (.ci/run installs it); without it the suite fails, it never skips.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

const repoRoot = path.resolve(__dirname, '..', '..');
const prometheusDirectory = path.join(repoRoot, 'deploy', 'prometheus');
const alertsDirectory = path.join(prometheusDirectory, 'alerts');
const alertTestsDirectory = path.join(prometheusDirectory, 'alerts-tests');
const dashboardsDirectory = path.join(repoRoot, 'deploy', 'grafana', 'dashboards');
const runbooksFile = path.join(repoRoot, 'docs', 'runbooks.md');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleTest {
  alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[];
}

const ruleFiles = readdirSync(alertsDirectory).filter((name) => name.endsWith('.yml')).sort();
const testFiles = readdirSync(alertTestsDirectory).filter((name) => name.endsWith('.test.yml')).sort();
const alerts: (Rule & { file: string })[] = ruleFiles.flatMap((file) => {
  const content = parseYaml(readFileSync(path.join(alertsDirectory, file), 'utf8')) as { groups: { rules: Rule[] }[] };
  return content.groups.flatMap((group) => group.rules.filter((rule) => rule.alert !== undefined).map((rule) => ({ ...rule, file })));
});

function promtool(args: string[], cwd = repoRoot) {
  const result = spawnSync('promtool', args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error(
      'promtool is not installed: these tests run `promtool check rules` and `promtool test rules`. ' +
        'Install it with `apt-get install -y --no-install-recommends prometheus` (Debian; .ci/run does this), ' +
        'or put a promtool binary from a Prometheus release on PATH.',
    );
  }
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    anchors.add(heading[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-'));
  }
  return anchors;
}

describe('Prometheus alert rules deploy/prometheus/alerts', () => {
  it('then promtool is installed', () => {
    const result = promtool(['--version']);
    expect(result.status).toBe(0);
  });

  it('when checked, then promtool check rules accepts every rule file', () => {
    expect(ruleFiles.length).toBeGreaterThan(0);
    const result = promtool(['check', 'rules', ...ruleFiles.map((file) => path.join(alertsDirectory, file))]);
    expect({ status: result.status, output: result.output }).toEqual({ status: 0, output: expect.not.stringContaining('FAILED') });
  });

  it('when prometheus.yml is checked, then it is valid and loads every rule file', () => {
    const config = parseYaml(readFileSync(path.join(prometheusDirectory, 'prometheus.yml'), 'utf8')) as { rule_files?: string[] };
    expect(config.rule_files).toEqual(['alerts/*.yml']);
    const result = promtool(['check', 'config', path.join(prometheusDirectory, 'prometheus.yml')]);
    expect(result.status).toBe(0);
    expect(result.output).toContain(`SUCCESS: ${ruleFiles.length} rule files found`);
  });

  it('when the rule unit tests run (promtool test rules), then every one passes', () => {
    expect(testFiles.length).toBeGreaterThan(0);
    const result = promtool(['test', 'rules', ...testFiles], alertTestsDirectory);
    if (result.status !== 0) throw new Error(`promtool test rules failed:\n${result.output}`);
    expect(result.output).not.toContain('FAILED');
  });

  it('then every rules file has its own unit test file, <name>.test.yml, which loads that file', () => {
    expect(testFiles).toEqual(ruleFiles.map((file) => file.replace(/\.yml$/, '.test.yml')));
    for (const file of ruleFiles) {
      const content = parseYaml(readFileSync(path.join(alertTestsDirectory, file.replace(/\.yml$/, '.test.yml')), 'utf8')) as { rule_files: string[] };
      expect({ file, loads: content.rule_files }).toEqual({ file, loads: [`../alerts/${file}`] });
    }
  });

  it('then every alert has a unit test in which it fires and one in which it does not', () => {
    const firing = new Set<string>();
    const quiet = new Set<string>();
    for (const file of testFiles) {
      const content = parseYaml(readFileSync(path.join(alertTestsDirectory, file), 'utf8')) as { tests: RuleTest[] };
      for (const test of content.tests) {
        for (const check of test.alert_rule_test ?? []) (check.exp_alerts?.length ? firing : quiet).add(check.alertname);
      }
    }
    const names = alerts.map((alert) => alert.alert!);
    expect({ withoutFiringTest: names.filter((name) => !firing.has(name)), withoutQuietTest: names.filter((name) => !quiet.has(name)) }).toEqual({
      withoutFiringTest: [],
      withoutQuietTest: [],
    });
  });

  it('then every alert has a unique name, a severity, a summary, a description and a runbook_url into docs/runbooks.md', () => {
    const anchors = anchorsOf(readFileSync(runbooksFile, 'utf8'));
    const names = alerts.map((alert) => alert.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const alert of alerts) {
      const shape = {
        alert: alert.alert,
        severity: alert.labels?.severity,
        summary: alert.annotations?.summary,
        description: alert.annotations?.description,
        runbook_url: alert.annotations?.runbook_url,
      };
      expect(shape).toEqual({
        alert: alert.alert,
        severity: expect.stringMatching(/^(critical|warning|info)$/),
        summary: expect.any(String),
        description: expect.any(String),
        runbook_url: expect.stringMatching(/\/docs\/runbooks\.md#[a-z0-9-]+$/),
      });
      const anchor = alert.annotations!.runbook_url!.split('#')[1]!;
      expect({ alert: alert.alert, anchor, inRunbooks: anchors.has(anchor) }).toEqual({ alert: alert.alert, anchor: alert.alert!.toLowerCase(), inRunbooks: true });
    }
  });

  it('then each console has its no-ready-instance alert, and the partner dashboard its 5xx, plain-HTTP, sign-in lockout and audit-chain alerts, each on its own service only', () => {
    const byName = new Map(alerts.map((alert) => [alert.alert!, alert]));
    const expected: [string, string, string][] = [
      ['PwaBackofficeUnavailable', 'backoffice.yml', 'backoffice'],
      ['PwaDashboardUnavailable', 'dashboard.yml', 'dashboard'],
      ['PwaDashboardHighErrorRatio', 'dashboard.yml', 'dashboard'],
      ['PwaDashboardPlainHttpRefused', 'dashboard.yml', 'dashboard'],
      ['PwaDashboardMostlyPlainHttp', 'dashboard.yml', 'dashboard'],
      ['PwaDashboardSignInLockouts', 'dashboard.yml', 'dashboard'],
      ['PwaDashboardAuditChainBroken', 'dashboard.yml', 'dashboard'],
      ['PwaDashboardAuditChainUnverified', 'dashboard.yml', 'dashboard'],
    ];
    for (const [name, file, service] of expected) {
      const alert = byName.get(name);
      expect({ name, file: alert?.file }).toEqual({ name, file });
      // Every selector of its expression names the service (a rule with a bare selector would match every service).
      const selectors = alert!.expr.match(/\{[^}]*\}/g) ?? [];
      expect(selectors.length).toBeGreaterThan(0);
      for (const selector of selectors) expect({ name, selector }).toEqual({ name, selector: expect.stringContaining(`service="${service}"`) });
    }
    // The dashboard answers to its own 5xx alert, not to the partner API's.
    expect(byName.get('PwaHighErrorRatio')!.expr).toContain('service!="dashboard"');
    expect(byName.get('PwaDashboardUnavailable')!.labels?.severity).toBe('critical');
  });

  it('then each console with an audit log has the same sign-in lockout and audit-chain alerts, on its own metrics, with the same severity and threshold', () => {
    const byName = new Map(alerts.map((alert) => [alert.alert!, alert]));
    for (const [consoleName, prefix] of [['Backoffice', 'backoffice'], ['Dashboard', 'dashboard']] as const) {
      for (const [kind, metric] of [['SignInLockouts', 'sign_in_refusals'], ['AuditChainBroken', 'audit_chain_intact'], ['AuditChainUnverified', 'audit_chain_verified_timestamp_seconds']] as const) {
        const name = `Pwa${consoleName}${kind}`;
        const alert = byName.get(name);
        const metrics = [...(alert?.expr ?? '').matchAll(/\b([a-z_]+_(?:sign_in_refusals|audit_chain_[a-z_]+))\b/g)].map((match) => match[1]);
        expect({ name, metrics }).toEqual({ name, metrics: [`${prefix}_${metric}`] });
        const twin = byName.get(`PwaBackoffice${kind}`)!;
        expect({ name, severity: alert?.labels?.severity, for: alert?.for, threshold: /(>=?|==) \d+$/.exec(alert!.expr.trim())?.[0] }).toEqual({
          name,
          severity: twin.labels?.severity,
          for: twin.for,
          threshold: /(>=?|==) \d+$/.exec(twin.expr.trim())?.[0],
        });
      }
    }
  });

  it('when a service has no scrape target at all, then its down alert fires: absent(up{service=...}) for each service, beside every target failing', () => {
    const byName = new Map(alerts.map((alert) => [alert.alert!, alert]));
    const expected: [string, string[]][] = [
      ['PwaServiceDown', ['gateway', 'auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks']],
      ['PwaBackofficeUnavailable', ['backoffice']],
      ['PwaDashboardUnavailable', ['dashboard']],
    ];
    for (const [name, services] of expected) {
      const expr = byName.get(name)!.expr;
      const absent = [...expr.matchAll(/absent\(up\{service="([a-z]+)"\}\)/g)].map((match) => match[1]);
      expect({ name, absent }).toEqual({ name, absent: services });
      expect({ name, everyTargetFailing: /sum by \(namespace, service\) \(up\{[^}]*\}\) == 0/.test(expr) }).toEqual({ name, everyTargetFailing: true });
    }
  });

  it('then every dashboard query parses as PromQL (checked by promtool as recording rules)', () => {
    const rules: { record: string; expr: string }[] = [];
    for (const file of readdirSync(dashboardsDirectory).filter((name) => name.endsWith('.json'))) {
      const dashboard = JSON.parse(readFileSync(path.join(dashboardsDirectory, file), 'utf8')) as {
        panels: { id: number; targets?: { refId: string; expr?: string }[] }[];
      };
      for (const panel of dashboard.panels) {
        for (const target of panel.targets ?? []) {
          if (!target.expr) continue;
          // Grafana fills in its variables before Prometheus sees the query.
          const expr = target.expr.replace(/\$__rate_interval|\$__interval|\$__range/g, '5m').replace(/\$\{?[A-Za-z_][A-Za-z0-9_]*(:\w+)?\}?/g, '.*');
          rules.push({ record: `dashboard_${file.replace(/\W/g, '_')}_panel_${panel.id}_${target.refId}`, expr });
        }
      }
    }
    expect(rules.length).toBeGreaterThan(0);
    const directory = mkdtempSync(path.join(tmpdir(), 'pwa-dashboard-rules-'));
    try {
      const file = path.join(directory, 'dashboards.yml');
      writeFileSync(file, JSON.stringify({ groups: [{ name: 'dashboards', rules }] }));
      const result = promtool(['check', 'rules', file]);
      if (result.status !== 0) throw new Error(`a dashboard query is not valid PromQL:\n${result.output}`);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
