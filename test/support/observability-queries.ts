import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { metricNamesOf, metricNamesOfVariableQuery } from './promql-metric-names';

/**
 * Every PromQL query of the dashboards (deploy/grafana/dashboards/*.json: panel targets, also in
 * collapsed rows, and template variables) and of the alert rules (deploy/prometheus/alerts/*.yml),
 * each with where it comes from and the metric names it reads.
 */
export interface ObservabilityQuery {
  /** "dashboard overview.json, panel 3 "5xx ratio by service", query A" or "alert rules money.yml, alert PwaX". */
  source: string;
  expression: string;
  metrics: string[];
}

const repoRoot = path.resolve(__dirname, '..', '..');
export const dashboardsDirectory = path.join(repoRoot, 'deploy', 'grafana', 'dashboards');
export const alertRulesDirectory = path.join(repoRoot, 'deploy', 'prometheus', 'alerts');

interface DashboardPanel {
  id?: number;
  title?: string;
  type?: string;
  targets?: { refId?: string; expr?: string }[];
  panels?: DashboardPanel[];
}
interface DashboardVariable {
  name?: string;
  type?: string;
  query?: string | { query?: string };
  definition?: string;
}
interface Dashboard {
  panels?: DashboardPanel[];
  templating?: { list?: DashboardVariable[] };
}
interface RuleFile {
  groups?: { name?: string; rules?: { alert?: string; record?: string; expr?: string }[] }[];
}

export function dashboardFiles(): string[] {
  return readdirSync(dashboardsDirectory).filter((name) => name.endsWith('.json')).sort();
}

export function alertRuleFiles(): string[] {
  return readdirSync(alertRulesDirectory).filter((name) => /\.ya?ml$/.test(name)).sort();
}

export function dashboardQueries(): ObservabilityQuery[] {
  const queries: ObservabilityQuery[] = [];
  for (const file of dashboardFiles()) {
    const dashboard = JSON.parse(readFileSync(path.join(dashboardsDirectory, file), 'utf8')) as Dashboard;
    const visit = (panels: DashboardPanel[] = []): void => {
      for (const panel of panels) {
        for (const target of panel.targets ?? []) {
          if (typeof target.expr !== 'string' || target.expr.trim() === '') continue;
          queries.push({
            source: `dashboard ${file}, panel ${String(panel.id)} "${panel.title ?? ''}", query ${target.refId ?? '?'}`,
            expression: target.expr,
            metrics: metricNamesOf(target.expr),
          });
        }
        visit(panel.panels);
      }
    };
    visit(dashboard.panels);
    for (const variable of dashboard.templating?.list ?? []) {
      if (variable.type !== 'query') continue;
      const query = typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? variable.definition ?? '');
      if (query.trim() === '') continue;
      queries.push({ source: `dashboard ${file}, variable $${variable.name ?? '?'}`, expression: query, metrics: metricNamesOfVariableQuery(query) });
    }
  }
  return queries;
}

export function alertRuleQueries(): ObservabilityQuery[] {
  const queries: ObservabilityQuery[] = [];
  for (const file of alertRuleFiles()) {
    const content = parseYaml(readFileSync(path.join(alertRulesDirectory, file), 'utf8')) as RuleFile;
    for (const group of content.groups ?? []) {
      for (const rule of group.rules ?? []) {
        if (typeof rule.expr !== 'string') continue;
        const name = rule.alert !== undefined ? `alert ${rule.alert}` : `record ${rule.record ?? '?'}`;
        queries.push({ source: `alert rules ${file}, ${name}`, expression: rule.expr, metrics: metricNamesOf(rule.expr) });
      }
    }
  }
  return queries;
}

/** Names recorded by recording rules: a dashboard or alert may query them although no service exposes them. */
export function recordedMetricNames(): Set<string> {
  const names = new Set<string>();
  for (const file of alertRuleFiles()) {
    const content = parseYaml(readFileSync(path.join(alertRulesDirectory, file), 'utf8')) as RuleFile;
    for (const group of content.groups ?? []) for (const rule of group.rules ?? []) if (rule.record) names.add(rule.record);
  }
  return names;
}
