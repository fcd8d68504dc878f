import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCollection } from '../support/collection-flow';
import { disbursementQuote, transfer } from '../support/disbursement-helpers';
import {
  alertRuleQueries,
  dashboardFiles,
  dashboardQueries,
  dashboardsDirectory,
  recordedMetricNames,
  type ObservabilityQuery,
} from '../support/observability-queries';
import { accessTokenFor, onboardPartner, pollUntil } from '../support/partners';
import { exposedMetricNames, metricNamesOf, metricNamesOfVariableQuery } from '../support/promql-metric-names';
import { internalServiceNames, repoRoot, startStack, type ServiceName, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner } from '../support/wallet-users';

/**
 * Dashboards (deploy/grafana/dashboards) and alert rules (deploy/prometheus/alerts) may only query
 * metrics of docs/metrics.md, and only metrics a service really serves. The first part checks the
 * files against the catalogue (and the PromQL extractor itself) without a stack; the second boots
 * the whole stack, drives a disbursement and a collection through the gateway, scrapes /metrics of
 * every process (the gateway on its admin port) and fails naming every dashboard panel and alert
 * that queries a metric no process exposes. Prometheus's own `up` is the one exception.
 */
const prometheusOwnMetrics = new Set(['up']);
const allServices: ServiceName[] = ['gateway', ...internalServiceNames, 'backoffice', 'dashboard'];

function allQueries(): ObservabilityQuery[] {
  return [...dashboardQueries(), ...alertRuleQueries()];
}

/** "metric -> the queries that read it" for the metrics the predicate rejects, as a readable report. */
function reportOfUnknown(queries: ObservabilityQuery[], known: (metric: string) => boolean): { metrics: string[]; report: string } {
  const users = new Map<string, string[]>();
  for (const query of queries) {
    for (const metric of query.metrics) {
      if (known(metric)) continue;
      users.set(metric, [...(users.get(metric) ?? []), query.source]);
    }
  }
  const metrics = [...users.keys()].sort();
  const report = metrics.map((metric) => `  ${metric}\n${users.get(metric)!.map((source) => `    - ${source}`).join('\n')}`).join('\n');
  return { metrics, report };
}

/** Metric names of docs/metrics.md (first column of its tables); histograms also as _bucket/_sum/_count. */
function catalogueMetricNames(): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(path.join(repoRoot, 'docs', 'metrics.md'), 'utf8').split('\n')) {
    if (!line.startsWith('| `')) continue;
    const firstCell = line.split('|')[1] ?? '';
    for (const match of firstCell.matchAll(/`([A-Za-z_:][A-Za-z0-9_:]*)`/g)) names.add(match[1]!);
  }
  return names;
}

describe('observability: what dashboards and alert rules query', () => {
  describe('the PromQL metric-name extractor', () => {
    test.each([
      ['a bare name', 'up', ['up']],
      ['a comparison with a number', 'up == 0', ['up']],
      ['a selector: label names and values are not metrics', 'http_requests_total{service="wallet",route!~"/healthz|/readyz",status_code=~"5.."}', ['http_requests_total']],
      ['an aggregation with by before and Grafana variables', 'sum by (service, route) (rate(http_requests_total{service=~"$service",instance=~"${instance:regex}"}[$__rate_interval]))', ['http_requests_total']],
      ['by after the call, without, offsets and durations', 'sum(rate(pkc_errors_total[5m] offset 1h)) by (code) / sum without (instance) (increase(pkc_errors_total[1h30m]))', ['pkc_errors_total']],
      ['histogram_quantile with a number and le', 'histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket{route=~"/api/v1/partner/.*"}[5m]))) > 2', ['http_request_duration_seconds_bucket']],
      ['vector matching, bool and set operators', 'a_total / on (service) group_left (kind) b_info > bool 1 and c or d unless e', ['a_total', 'b_info', 'c', 'd', 'e']],
      ['time(), absent() and a metric right before )', 'time() - max(collection_expiry_sweep_last_success_timestamp_seconds) > 300 or absent(ledger_invariant_ok{service="wallet"})', ['collection_expiry_sweep_last_success_timestamp_seconds', 'ledger_invariant_ok']],
      ['string arguments and subqueries', 'label_replace(max_over_time(gateway_upstream_circuit_state[10m:1m]), "dst", "$1", "upstream", "(.*)")', ['gateway_upstream_circuit_state']],
      ['topk, count_values, scientific numbers, NaN and Inf', 'topk(5, x_total) + count_values("version", y) * 1e-3 > -Inf != NaN', ['x_total', 'y']],
      ['a multi-line rule with comments', 'sum by (service) (rate(a_total[5m])) # errors\n/\nsum by (service) (rate(b_total[5m]))', ['a_total', 'b_total']],
      ['a recording-rule name with colons', 'job:http_requests:rate5m > 0', ['job:http_requests:rate5m']],
    ])('%s', (_case, expression, expected) => {
      expect(metricNamesOf(expression)).toEqual(expected);
    });

    test('Grafana variable queries: label_values reads its selector, not the label it lists', () => {
      expect(metricNamesOfVariableQuery('label_values(up{service="wallet"}, instance)')).toEqual(['up']);
      expect(metricNamesOfVariableQuery('label_values(service)')).toEqual([]);
      expect(metricNamesOfVariableQuery('query_result(topk(3, sum by (route) (rate(http_requests_total[1h]))))')).toEqual(['http_requests_total']);
    });

    test('a /metrics page exposes what its # TYPE lines and samples name, histograms as _bucket/_sum/_count', () => {
      const page = [
        '# HELP http_requests_total Requests',
        '# TYPE http_requests_total counter',
        'http_requests_total{service="wallet",route="/x",status_code="200"} 3',
        '# TYPE http_request_duration_seconds histogram',
        'http_request_duration_seconds_bucket{le="+Inf",service="wallet"} 3',
        '# TYPE ledger_invariant_ok gauge',
        '# TYPE webhook_retries counter',
        '# TYPE rpc_seconds summary',
        'nodejs_version_info{version="v20.0.0"} 1',
      ].join('\n');
      expect([...exposedMetricNames(page)].sort()).toEqual(
        [
          'http_requests_total',
          'http_request_duration_seconds_bucket',
          'http_request_duration_seconds_sum',
          'http_request_duration_seconds_count',
          'ledger_invariant_ok',
          'webhook_retries',
          'webhook_retries_total',
          'rpc_seconds',
          'rpc_seconds_sum',
          'rpc_seconds_count',
          'nodejs_version_info',
        ].sort(),
      );
    });
  });

  describe('the dashboard and rule files', () => {
    test('the dashboards are what deploy/grafana/generate-dashboards.js writes (edit the generator, then run it)', () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const generator = require(path.join(repoRoot, 'deploy', 'grafana', 'generate-dashboards.js')) as { renderAll: () => Record<string, string> };
      const rendered = generator.renderAll();
      expect(dashboardFiles()).toEqual(Object.keys(rendered).sort());
      for (const [file, text] of Object.entries(rendered)) {
        expect({ file, text: readFileSync(path.join(dashboardsDirectory, file), 'utf8') }).toEqual({ file, text });
      }
    });

    test('every dashboard has its own uid, uses the provisioned Prometheus datasource, and unique panel ids on a 24-column grid', () => {
      const uids = new Set<string>();
      for (const file of dashboardFiles()) {
        const dashboard = JSON.parse(readFileSync(path.join(dashboardsDirectory, file), 'utf8'));
        expect(uids.has(dashboard.uid)).toBe(false);
        uids.add(dashboard.uid);
        const ids = new Set<number>();
        for (const panel of dashboard.panels) {
          expect(ids.has(panel.id)).toBe(false);
          ids.add(panel.id);
          expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
          if (panel.type === 'row') continue;
          expect({ file, panel: panel.title, datasource: panel.datasource }).toEqual({ file, panel: panel.title, datasource: { type: 'prometheus', uid: 'prometheus' } });
          for (const target of panel.targets) expect(target.datasource).toEqual({ type: 'prometheus', uid: 'prometheus' });
        }
      }
      expect(uids.size).toBe(10); // the overview and one per service (the back-office and the partner dashboard included)
    });

    test('every query reads at least one metric (the extractor understood it)', () => {
      const empty = allQueries().filter((query) => query.metrics.length === 0).map((query) => `${query.source}: ${query.expression}`);
      expect(empty).toEqual([]);
    });

    test('every metric a dashboard or alert rule queries is in the catalogue docs/metrics.md (or is Prometheus’s up)', () => {
      const catalogue = catalogueMetricNames();
      const known = (metric: string) =>
        prometheusOwnMetrics.has(metric) || catalogue.has(metric) || catalogue.has(metric.replace(/_(bucket|sum|count)$/, '')) || recordedMetricNames().has(metric);
      const { report } = reportOfUnknown(allQueries(), known);
      if (report !== '') throw new Error(`Dashboards and alert rules query metrics that docs/metrics.md does not list:\n${report}`);
    });
  });

  describe('against a running stack, after a disbursement and a collection', () => {
    let stack: Stack;
    const pages = new Map<ServiceName, string>();

    beforeAll(async () => {
      stack = await startStack({ logLevel: 'warn', backoffice: true, dashboard: true });
      const partner = await onboardPartner(stack);
      await fundPartner(stack, partner.partnerId, 'USD', '1000.00');
      const token = await accessTokenFor(stack.client, partner);
      const user = await createWalletUser(stack, { name: 'Observability Tester' });
      await creditWallet(stack, user, 'USD', '500.00');

      const quote = await disbursementQuote(stack.client, token, user, 10);
      const transferred = await transfer(stack.client, token, { quoteId: quote.quoteId, externalId: `obs-${Date.now()}` });
      if (transferred.status !== 200) throw new Error(`transfer failed: ${transferred.status} ${transferred.text}`);

      const referenceId = await createCollection(stack.client, token, { phone: user.localPhone, amount: 10, currency: 'USD' });
      const approved = await stack.client.post(`/partner/v1/sandbox/collection/${referenceId}/approve`, {}, { bearer: token });
      if (approved.status !== 200) throw new Error(`sandbox approve failed: ${approved.status} ${approved.text}`);
      const status = await pollUntil(
        () => stack.client.get(`/partner/v1/collection/${referenceId}`, { bearer: token }),
        (response) => response.body?.data?.status === 'completed',
        10_000,
      );
      if (status.body?.data?.status !== 'completed') throw new Error(`collection did not complete: ${status.status} ${status.text}`);

      const urls: Record<ServiceName, string> = {
        gateway: `http://127.0.0.1:${stack.gateway.adminPort}/metrics`,
        ...Object.fromEntries(internalServiceNames.map((name) => [name, `${stack.internalUrls[name]}/metrics`])),
        // Plain HTTP on the back-office's HTTPS port answers /metrics (decision 0067).
        backoffice: `${stack.backoffice!.probeUrl}/metrics`,
        // The partner dashboard serves /metrics on its internal listener only (never its public port).
        dashboard: `${stack.dashboard!.internalUrl}/metrics`,
      } as Record<ServiceName, string>;
      for (const service of allServices) {
        const response = await fetch(urls[service]);
        if (response.status !== 200) throw new Error(`GET ${urls[service]} answered ${response.status}`);
        pages.set(service, await response.text());
      }
    }, 180_000);

    afterAll(async () => {
      await stack?.stop();
    });

    test('every process serves /metrics with its own service label', () => {
      for (const service of allServices) {
        expect({ service, labelled: pages.get(service)?.includes(`service="${service}"`) }).toEqual({ service, labelled: true });
      }
    });

    test('the HTTP metrics every service shares are exposed by every process', () => {
      for (const service of allServices) {
        const exposed = exposedMetricNames(pages.get(service) ?? '');
        const missing = ['http_requests_total', 'http_request_duration_seconds_bucket', 'process_cpu_seconds_total'].filter((name) => !exposed.has(name));
        expect({ service, missing }).toEqual({ service, missing: [] });
      }
    });

    test('every metric a dashboard or alert rule queries is exposed by at least one process', () => {
      const exposed = new Set<string>();
      for (const page of pages.values()) for (const name of exposedMetricNames(page)) exposed.add(name);
      const recorded = recordedMetricNames();
      const { metrics, report } = reportOfUnknown(allQueries(), (metric) => prometheusOwnMetrics.has(metric) || recorded.has(metric) || exposed.has(metric) || otherExporterMetricNames().has(metric));
      if (metrics.length > 0) {
        throw new Error(
          `${metrics.length} metric(s) queried by dashboards or alert rules are exposed by no process ` +
            `(scraped /metrics of ${allServices.join(', ')}). Either a service must expose them as docs/metrics.md ` +
            `promises, or the dashboard/alert must stop querying them:\n${report}`,
        );
      }
    });
  });
});

/** The metrics docs/metrics.md lists under "From other exporters" (cAdvisor, kube-state-metrics, postgres_exporter, the blackbox exporter): queried, never served by our processes. */
function otherExporterMetricNames(): Set<string> {
  const section = readFileSync(path.join(repoRoot, 'docs', 'metrics.md'), 'utf8').split(/^## /m).find((part) => part.startsWith('From other exporters')) ?? '';
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    for (const match of (line.split('|')[1] ?? '').matchAll(/`([A-Za-z_:][A-Za-z0-9_:]*)`/g)) if (match[1] !== undefined) names.add(match[1]);
  }
  return names;
}
