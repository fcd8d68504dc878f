#!/usr/bin/env node
// Writes deploy/prometheus/alerts/slo.yml from the SLO definitions of deploy/prometheus/slos.yaml:
// per SLO, recording rules of its error ratio over each window, then its two burn-rate alerts
// (Google SRE workbook, "Alerting on SLOs": multiwindow, multi-burn-rate alerts; the shape sloth
// and pyrra generate). Edit slos.yaml, not slo.yml, then run `node deploy/prometheus/generate-slo-rules.js`;
// test/deploy/slo-rules.test.ts fails when the committed file and this generator's output differ.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { parse: parseYaml } = require('yaml');

const sourceFile = path.join(__dirname, 'slos.yaml');
const outputFile = path.join(__dirname, 'alerts', 'slo.yml');
const runbookBase = 'https://git.example.com/partner-wallet-api/blob/main/docs/runbooks.md';

/** Every window an alert reads, shortest first; the recording rules record one ratio per window. */
const windows = ['5m', '30m', '1h', '2h', '6h', '1d', '3d'];

/** The bucket boundaries of http_request_duration_seconds (libs/http/src/metrics.ts) a latency SLO may use. */
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The workbook's recommended pairs for a 30-day objective. A pair fires when the error ratio over
 * both its long and its short window exceeds factor times the error budget; the short window makes
 * the alert stop soon after the burn does. `spent` is the share of the 30-day budget the long
 * window has burnt when its pair starts firing.
 */
const burnRateAlerts = [
  {
    suffix: 'FastBurn',
    severity: 'critical',
    for: '2m',
    pairs: [
      { long: '1h', short: '5m', factor: 14.4, longWords: 'hour', shortWords: '5 minutes', spent: '2 %' },
      { long: '6h', short: '30m', factor: 6, longWords: '6 hours', shortWords: '30 minutes', spent: '5 %' },
    ],
  },
  {
    suffix: 'SlowBurn',
    severity: 'warning',
    for: '15m',
    pairs: [
      { long: '1d', short: '2h', factor: 3, longWords: 'day', shortWords: '2 hours', spent: '10 %' },
      { long: '3d', short: '6h', factor: 1, longWords: '3 days', shortWords: '6 hours', spent: '10 %' },
    ],
  },
];

/** A number as PromQL and YAML should read it: 0.001, not 0.0010000000000000009. */
function cleanNumber(value) {
  return Number.parseFloat(value.toPrecision(10));
}

function fail(message) {
  throw new Error(`deploy/prometheus/slos.yaml: ${message}`);
}

/** The SLO definitions, checked: the generator refuses what it would render wrongly. */
function loadSlos(file = sourceFile) {
  const source = parseYaml(fs.readFileSync(file, 'utf8'));
  if (source.periodDays !== 30) fail('periodDays must be 30: the burn-rate factors 14.4, 6, 3 and 1 are those of a 30-day period');
  const classes = source.operationClasses ?? {};
  for (const [name, operationClass] of Object.entries(classes)) {
    if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(operationClass.method)) fail(`class ${name}: method ${operationClass.method}`);
    if (!Array.isArray(operationClass.routes) || operationClass.routes.length === 0) fail(`class ${name}: no routes`);
    for (const route of operationClass.routes) {
      // Routes go into a PromQL regular expression unescaped: keep them to characters that mean themselves.
      if (!/^\/[A-Za-z0-9/:_-]+$/.test(route)) fail(`class ${name}: route ${route} has characters a route label does not`);
    }
  }
  const names = new Set();
  const alerts = new Set();
  for (const slo of source.slos ?? []) {
    if (!/^[a-z][a-z0-9-]*$/.test(slo.name ?? '')) fail(`SLO name ${slo.name}`);
    if (names.has(slo.name)) fail(`SLO ${slo.name} twice`);
    names.add(slo.name);
    if (!/^Pwa[A-Za-z]+$/.test(slo.alert ?? '') || alerts.has(slo.alert)) fail(`SLO ${slo.name}: alert ${slo.alert}`);
    alerts.add(slo.alert);
    if (!(typeof slo.objective === 'number' && slo.objective > 0 && slo.objective < 100)) fail(`SLO ${slo.name}: objective ${slo.objective}`);
    for (const key of ['title', 'bad', 'impact']) if (typeof slo[key] !== 'string' || slo[key] === '') fail(`SLO ${slo.name}: ${key}`);
    const sli = slo.sli ?? {};
    if (sli.type === 'http-availability' || sli.type === 'http-latency') {
      const operationClass = classes[sli.class];
      if (!operationClass) fail(`SLO ${slo.name}: class ${sli.class}`);
      for (const route of sli.excludeRoutes ?? []) if (!operationClass.routes.includes(route)) fail(`SLO ${slo.name}: excluded ${route} is not in class ${sli.class}`);
      if (sli.type === 'http-latency' && !latencyBuckets.includes(sli.thresholdSeconds)) fail(`SLO ${slo.name}: thresholdSeconds ${sli.thresholdSeconds} is no bucket boundary`);
    } else if (sli.type === 'events') {
      if (typeof sli.errors !== 'string' || typeof sli.total !== 'string') fail(`SLO ${slo.name}: events need errors and total`);
    } else if (sli.type === 'time-slice') {
      if (typeof sli.expression !== 'string') fail(`SLO ${slo.name}: time-slice needs expression`);
    } else {
      fail(`SLO ${slo.name}: sli.type ${sli.type}`);
    }
  }
  return source;
}

/** `service="gateway",method="POST",route=~"a|b"`: the class's routes at the gateway, less the SLO's exclusions. */
function routeSelector(operationClass, excluded = []) {
  const routes = operationClass.routes.filter((route) => !excluded.includes(route));
  const route = routes.length === 1 ? `route="${routes[0]}"` : `route=~"${routes.join('|')}"`;
  return `service="gateway",method="${operationClass.method}",${route}`;
}

function sumRate(selector, window) {
  return `sum by (namespace) (rate(${selector}[${window}]))`;
}

/**
 * errors / total: 0 (rather than no ratio) while there are events but no error series yet, and no
 * ratio (rather than NaN, 0/0) in a window without events, so that the 30-day mean skips quiet
 * windows instead of turning NaN.
 */
function eventsRatio(errors, total, window) {
  return [`(`, `  ${sumRate(errors, window)}`, `  or`, `  0 * ${sumRate(total, window)}`, `)`, `/`, `(${sumRate(total, window)} > 0)`].join('\n');
}

/** The PromQL of one SLO's error ratio over one window. */
function errorRatio(slo, classes, window) {
  const sli = slo.sli;
  switch (sli.type) {
    case 'http-availability': {
      const selector = routeSelector(classes[sli.class]);
      return eventsRatio(`http_requests_total{${selector},status_code=~"5.."}`, `http_requests_total{${selector}}`, window);
    }
    case 'http-latency': {
      const selector = `${routeSelector(classes[sli.class], sli.excludeRoutes)},status_code!~"5.."`;
      return [
        `1 - (`,
        `  ${sumRate(`http_request_duration_seconds_bucket{${selector},le="${sli.thresholdSeconds}"}`, window)}`,
        `  /`,
        `  (${sumRate(`http_request_duration_seconds_count{${selector}}`, window)} > 0)`,
        `)`,
      ].join('\n');
    }
    case 'events':
      return eventsRatio(sli.errors, sli.total, window);
    case 'time-slice':
      return `avg_over_time(pwa_slo:sli_bad:bool{slo="${slo.name}"}[${window}])`;
    default:
      throw new Error(`unknown sli.type ${sli.type}`);
  }
}

function budgetOf(slo) {
  return cleanNumber(1 - slo.objective / 100);
}

function alertExpression(slo, alert) {
  const budget = budgetOf(slo);
  const over = (window, factor) => `pwa_slo:sli_error:ratio_rate${window}{slo="${slo.name}"} / ${budget} > ${factor}`;
  return alert.pairs.map((pair) => ['(', `  ${over(pair.long, pair.factor)}`, '  and', `  ${over(pair.short, pair.factor)}`, ')'].join('\n')).join('\nor\n');
}

function objectiveWords(slo) {
  const budget = cleanNumber(100 - slo.objective);
  return slo.sli.type === 'time-slice'
    ? `Objective: good ${slo.objective} % of the time over 30 days, an error budget of ${budget} % of it.`
    : `Objective: ${slo.objective} % good over 30 days, an error budget of ${budget} %.`;
}

function alertDescription(slo, alert) {
  const [first, second] = alert.pairs;
  const days = cleanNumber(30 / first.factor);
  const pace =
    alert.severity === 'critical'
      ? `at ${first.factor} times the whole 30-day budget is gone in ${days.toFixed(1)} days. It pages: the burn is fast enough to matter tonight.`
      : `at ${first.factor} times the 30-day budget is gone in ${days} days. A ticket: look at it in working hours.`;
  return [
    `Counted as bad: ${slo.bad}. ${objectiveWords(slo)}`,
    `The error ratio over the last ${first.longWords} and the last ${first.shortWords} is above ${first.factor} times the budget, or over the last ${second.longWords} and the last ${second.shortWords} above ${second.factor === 1 ? 'the budget itself' : `${second.factor} times`};`,
    `${pace}`,
    slo.impact.trim(),
  ].join(' ');
}

/** Folds a sentence into lines of at most `width` characters for a YAML `>-` block. */
function fold(text, indent, width = 100) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines.map((each) => `${indent}${each}`).join('\n');
}

function block(text, indent) {
  return text
    .split('\n')
    .map((line) => `${indent}${line}`)
    .join('\n');
}

function quoted(text) {
  return JSON.stringify(text);
}

function recordingRule(record, expr, sloName) {
  return [`      - record: ${record}`, `        expr: |`, block(expr, '          '), `        labels:`, `          slo: ${quoted(sloName)}`].join('\n');
}

function alertingRule(slo, alert) {
  const name = `${slo.alert}${alert.suffix}`;
  const speed = alert.severity === 'critical' ? 'fast' : 'slowly';
  return [
    `      - alert: ${name}`,
    `        expr: |`,
    block(alertExpression(slo, alert), '          '),
    `        for: ${alert.for}`,
    `        labels:`,
    `          severity: ${alert.severity}`,
    `          slo: ${quoted(slo.name)}`,
    `        annotations:`,
    `          summary: ${quoted(`${slo.title}: the error budget burns ${speed}, {{ printf "%.1f" $value }} times the rate the objective allows`)}`,
    `          description: >-`,
    fold(alertDescription(slo, alert), '            '),
    `          runbook_url: ${runbookBase}#${name.toLowerCase()}`,
  ].join('\n');
}

function sloGroup(slo, classes) {
  const rules = [];
  if (slo.sli.type === 'time-slice') {
    rules.push(recordingRule('pwa_slo:sli_bad:bool', slo.sli.expression, slo.name));
  }
  for (const window of windows) rules.push(recordingRule(`pwa_slo:sli_error:ratio_rate${window}`, errorRatio(slo, classes, window), slo.name));
  // What the dashboards show as the budget spent: the mean of the 5-minute ratios over the period
  // (not weighted by traffic; cheap, where a 30-day rate over raw counters is not).
  rules.push(recordingRule('pwa_slo:sli_error:ratio_rate30d', `avg_over_time(pwa_slo:sli_error:ratio_rate5m{slo="${slo.name}"}[30d])`, slo.name));
  for (const alert of burnRateAlerts) rules.push(alertingRule(slo, alert));
  return [`  - name: pwa-slo-${slo.name}`, `    rules:`, rules.join('\n\n')].join('\n');
}

/** The text of alerts/slo.yml. */
function render(source = loadSlos()) {
  const header = [
    '# Generated by deploy/prometheus/generate-slo-rules.js from deploy/prometheus/slos.yaml: do not edit.',
    '# Edit slos.yaml, then run `node deploy/prometheus/generate-slo-rules.js`. The SLOs, their targets',
    '# and what each alert means: docs/slos.md and docs/runbooks.md.',
    '#',
    '# Per SLO: pwa_slo:sli_error:ratio_rate<window>{slo} (the share of bad events, or bad evaluations,',
    '# over 5m ... 3d; 30d is the mean of the 5m ratios), then <alert>FastBurn (critical: 1h and 5m',
    '# above 14.4 times the budget, or 6h and 30m above 6 times) and <alert>SlowBurn (warning: 1d and 2h',
    '# above 3 times, or 3d and 6h above once). Ratios are per namespace (one installation).',
  ].join('\n');
  const groups = source.slos.map((slo) => sloGroup(slo, source.operationClasses));
  return `${header}\ngroups:\n${groups.join('\n\n')}\n`;
}

module.exports = { loadSlos, render, windows, burnRateAlerts, budgetOf, outputFile };

if (require.main === module) {
  fs.writeFileSync(outputFile, render());
  console.log(`wrote ${path.relative(process.cwd(), outputFile)}`);
}
