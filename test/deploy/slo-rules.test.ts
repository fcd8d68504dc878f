// The SLOs (deploy/prometheus/slos.yaml) and the rules generated from them
// (deploy/prometheus/alerts/slo.yml, by deploy/prometheus/generate-slo-rules.js): the committed rules
// are the generator's output; every partner route of the gateway belongs to one operation class or is
// excluded with a reason; every SLO records its error ratio over each window and has the workbook's
// two burn-rate alerts; latency thresholds are bucket boundaries of the gateway's histogram; and
// docs/slos.md states every SLO's objective and alerts. promtool runs the rules in test/deploy/alerts.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { publicPathPrefix, routeTable } from '../../services/gateway/src/domain/routes';

const repoRoot = path.resolve(__dirname, '..', '..');
const prometheusDirectory = path.join(repoRoot, 'deploy', 'prometheus');

interface OperationClass {
  title: string;
  method: string;
  routes: string[];
}
interface Slo {
  name: string;
  alert: string;
  title: string;
  objective: number;
  sli: { type: string; class?: string; thresholdSeconds?: number; excludeRoutes?: string[] };
}
interface SloSource {
  periodDays: number;
  operationClasses: Record<string, OperationClass>;
  excludedRoutes: { method: string; route: string; why: string }[];
  slos: Slo[];
}
interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require(path.join(prometheusDirectory, 'generate-slo-rules.js')) as {
  loadSlos: () => SloSource;
  render: () => string;
  windows: string[];
};
const source = generator.loadSlos();
const rules: Rule[] = (parseYaml(readFileSync(path.join(prometheusDirectory, 'alerts', 'slo.yml'), 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap(
  (group) => group.rules,
);

/** "POST /api/v1/partner/auth/token": a route as the gateway's metrics label it. */
const key = (method: string, route: string) => `${method} ${route}`;

describe('SLOs deploy/prometheus/slos.yaml and their rules alerts/slo.yml', () => {
  it('when generated, then alerts/slo.yml is exactly what generate-slo-rules.js writes (edit slos.yaml, then run the generator)', () => {
    expect(readFileSync(path.join(prometheusDirectory, 'alerts', 'slo.yml'), 'utf8')).toBe(generator.render());
  });

  it('then every partner route of the gateway is in exactly one operation class or excluded with a reason, and nothing else is listed', () => {
    const partnerRoutes = routeTable.map((route) => key(route.method, `${publicPathPrefix}${route.pathTemplate}`)).sort();
    const classified = Object.values(source.operationClasses).flatMap((operationClass) => operationClass.routes.map((route) => key(operationClass.method, route)));
    const excluded = source.excludedRoutes.map((entry) => key(entry.method, entry.route));
    expect(source.excludedRoutes.filter((entry) => entry.why.trim() === '')).toEqual([]);
    expect([...classified, ...excluded].sort()).toEqual(partnerRoutes);
  });

  it('then every SLO records its error ratio over 5m, 30m, 1h, 2h, 6h, 1d and 3d (and the 30-day mean), labelled with its name', () => {
    expect(generator.windows).toEqual(['5m', '30m', '1h', '2h', '6h', '1d', '3d']);
    for (const slo of source.slos) {
      const recorded = rules.filter((rule) => rule.record?.startsWith('pwa_slo:sli_error:ratio_rate') && rule.labels?.slo === slo.name).map((rule) => rule.record);
      expect({ slo: slo.name, recorded }).toEqual({ slo: slo.name, recorded: [...generator.windows, '30d'].map((window) => `pwa_slo:sli_error:ratio_rate${window}`) });
    }
  });

  it("then every SLO has the workbook's two alerts: FastBurn pages on 1h/5m at 14.4x or 6h/30m at 6x, SlowBurn tickets on 1d/2h at 3x or 3d/6h at 1x", () => {
    for (const slo of source.slos) {
      const budget = Number((1 - slo.objective / 100).toPrecision(10));
      const pair = (long: string, short: string, factor: number) =>
        [long, short].map((window) => `pwa_slo:sli_error:ratio_rate${window}{slo="${slo.name}"} / ${budget} > ${factor}`);
      const fast = rules.find((rule) => rule.alert === `${slo.alert}FastBurn`);
      const slow = rules.find((rule) => rule.alert === `${slo.alert}SlowBurn`);
      expect({ slo: slo.name, severity: fast?.labels?.severity, for: fast?.for }).toEqual({ slo: slo.name, severity: 'critical', for: '2m' });
      expect({ slo: slo.name, severity: slow?.labels?.severity, for: slow?.for }).toEqual({ slo: slo.name, severity: 'warning', for: '15m' });
      const conditions = (rule: Rule | undefined) => (rule?.expr ?? '').split('\n').map((line) => line.trim()).filter((line) => line.startsWith('pwa_slo:'));
      expect(conditions(fast)).toEqual([...pair('1h', '5m', 14.4), ...pair('6h', '30m', 6)]);
      expect(conditions(slow)).toEqual([...pair('1d', '2h', 3), ...pair('3d', '6h', 1)]);
    }
  });

  it('then the SLOs cover availability and latency of every operation class, and webhook delivery', () => {
    const covered = source.slos.filter((slo) => slo.sli.class !== undefined).map((slo) => `${slo.sli.class} ${slo.sli.type}`).sort();
    const expected = Object.keys(source.operationClasses).flatMap((name) => [`${name} http-availability`, `${name} http-latency`]).sort();
    expect(covered).toEqual(expected);
    expect(source.slos.map((slo) => slo.name)).toEqual(expect.arrayContaining(['webhook-delivery', 'webhook-freshness']));
  });

  it("then every latency threshold is a bucket boundary of the services' http_request_duration_seconds (libs/http)", () => {
    const metricsSource = readFileSync(path.join(repoRoot, 'libs', 'http', 'src', 'metrics.ts'), 'utf8');
    const histogram = /name: 'http_request_duration_seconds'[\s\S]*?buckets: \[([^\]]*)\]/.exec(metricsSource);
    const buckets = (histogram?.[1] ?? '').split(',').map((value) => Number(value.trim()));
    expect(buckets.length).toBeGreaterThan(0);
    for (const slo of source.slos.filter((each) => each.sli.type === 'http-latency')) {
      expect({ slo: slo.name, threshold: buckets.includes(slo.sli.thresholdSeconds!) }).toEqual({ slo: slo.name, threshold: true });
    }
  });

  it('then docs/slos.md states every SLO with its objective and both of its alerts', () => {
    const document = readFileSync(path.join(repoRoot, 'docs', 'slos.md'), 'utf8');
    for (const slo of source.slos) {
      const row = document.split('\n').find((line) => line.startsWith('|') && line.includes(`\`${slo.name}\``));
      expect({ slo: slo.name, row: row !== undefined }).toEqual({ slo: slo.name, row: true });
      expect({ slo: slo.name, objective: row!.includes(`${slo.objective} %`), fast: row!.includes(`${slo.alert}FastBurn`), slow: row!.includes(`${slo.alert}SlowBurn`) }).toEqual({
        slo: slo.name,
        objective: true,
        fast: true,
        slow: true,
      });
    }
  });
});
