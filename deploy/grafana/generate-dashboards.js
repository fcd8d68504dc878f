#!/usr/bin/env node
// Writes the Grafana dashboards of deploy/grafana/dashboards/*.json: the overview and one per
// service. Edit this file, not the JSON, then run `node deploy/grafana/generate-dashboards.js`
// (test/e2e/observability-metrics.test.ts fails when the JSON and this generator disagree).
//
// Rules: only metrics of docs/metrics.md (and Prometheus's `up`); the datasource is the provisioned
// Prometheus (uid `prometheus`, deploy/grafana/provisioning/datasources); every series is filtered
// by the `service` label the services set themselves; rates use $__rate_interval.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
// The SLOs of deploy/prometheus/slos.yaml: the overview shows their budgets and burn rates from the
// series their rules record (deploy/prometheus/alerts/slo.yml).
const { loadSlos, budgetOf } = require('../prometheus/generate-slo-rules.js');

const datasource = { type: 'prometheus', uid: 'prometheus' };
const probeRoutes = 'route!~"/healthz|/readyz|/metrics"';
const services = ['gateway', 'auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks', 'backoffice', 'dashboard'];

const breakerMappings = [
  {
    type: 'value',
    options: {
      0: { text: 'closed', color: 'green', index: 0 },
      1: { text: 'half-open', color: 'orange', index: 1 },
      2: { text: 'open', color: 'red', index: 2 },
    },
  },
];
const breakerThresholds = { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'orange', value: 1 }, { color: 'red', value: 2 }] };
const okThresholds = { mode: 'absolute', steps: [{ color: 'red', value: null }, { color: 'green', value: 1 }] };

/** One query of a panel. */
function q(expr, legendFormat, extra = {}) {
  return { expr, legendFormat, ...extra };
}

/**
 * A panel: { title, type (timeseries | stat | bargauge | state-timeline), w, h, unit, queries,
 * description, min, max, stack, thresholds, mappings, decimals }.
 */
function panel(spec) {
  return { w: 8, h: 8, type: 'timeseries', ...spec };
}

function row(title) {
  return { row: title };
}

function renderPanel(spec, id, gridPos) {
  const defaults = { unit: spec.unit ?? 'short' };
  if (spec.min !== undefined) defaults.min = spec.min;
  if (spec.max !== undefined) defaults.max = spec.max;
  if (spec.decimals !== undefined) defaults.decimals = spec.decimals;
  if (spec.thresholds) defaults.thresholds = spec.thresholds;
  if (spec.mappings) defaults.mappings = spec.mappings;
  if (spec.type === 'timeseries') {
    defaults.custom = { drawStyle: 'line', lineWidth: 1, fillOpacity: spec.stack ? 40 : 10, showPoints: 'never', stacking: { mode: spec.stack ? 'normal' : 'none', group: 'A' } };
  }
  if (spec.type === 'state-timeline') defaults.custom = { fillOpacity: 80, lineWidth: 0 };
  const options =
    spec.type === 'timeseries'
      ? { legend: { displayMode: 'table', placement: 'bottom', showLegend: true, calcs: ['lastNotNull', 'max'] }, tooltip: { mode: 'multi', sort: 'desc' } }
      : spec.type === 'stat'
        ? { reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false }, colorMode: 'background', graphMode: 'none', textMode: 'auto', orientation: 'auto', justifyMode: 'auto' }
        : spec.type === 'state-timeline'
          ? { showValue: 'never', mergeValues: true, rowHeight: 0.8, legend: { displayMode: 'list', placement: 'bottom', showLegend: true }, tooltip: { mode: 'single' } }
          : { reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false }, orientation: 'horizontal', displayMode: 'gradient', showUnfilled: true };
  return {
    id,
    title: spec.title,
    ...(spec.description ? { description: spec.description } : {}),
    type: spec.type,
    datasource,
    gridPos,
    targets: spec.queries.map((query, index) => ({ refId: String.fromCharCode(65 + index), datasource, range: true, ...query })),
    fieldConfig: { defaults, overrides: [] },
    options,
  };
}

/** Lays panels out left to right in rows of 24 columns; `row()` entries start a Grafana row. */
function layout(items, withRows) {
  const panels = [];
  let id = 1;
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const item of items) {
    if (item.row !== undefined) {
      if (x > 0) {
        y += rowHeight;
        x = 0;
        rowHeight = 0;
      }
      if (withRows) {
        panels.push({ id: id++, type: 'row', title: item.row, collapsed: false, gridPos: { x: 0, y, w: 24, h: 1 }, panels: [] });
        y += 1;
      }
      continue;
    }
    if (x + item.w > 24) {
      y += rowHeight;
      x = 0;
      rowHeight = 0;
    }
    panels.push(renderPanel(item, id++, { x, y, w: item.w, h: item.h }));
    x += item.w;
    rowHeight = Math.max(rowHeight, item.h);
  }
  return panels;
}

function queryVariable(name, label, query, extra = {}) {
  return {
    name,
    label,
    type: 'query',
    datasource,
    query: { query, refId: name },
    definition: query,
    includeAll: true,
    multi: true,
    refresh: 2,
    sort: 1,
    current: { text: 'All', value: '$__all' },
    ...extra,
  };
}

function dashboard({ uid, title, description, tags, variables, items, withRows = true }) {
  return {
    uid,
    title,
    description,
    tags: ['partner-wallet', ...tags],
    timezone: 'browser',
    schemaVersion: 39,
    version: 1,
    editable: false,
    graphTooltip: 1,
    refresh: '30s',
    time: { from: 'now-1h', to: 'now' },
    links: [{ type: 'dashboards', title: 'Partner Wallet API', tags: ['partner-wallet'], asDropdown: true, includeVars: false, keepTime: true }],
    templating: { list: variables },
    annotations: { list: [] },
    panels: layout(items, withRows),
  };
}

// --- Sections shared by the service dashboards -------------------------------------------------

/** `{service="<name>",instance=~"$instance"<extra>}` */
function sel(service, extra = '') {
  return `{service="${service}",instance=~"$instance"${extra ? `,${extra}` : ''}}`;
}

function redSection(service) {
  const s = (extra) => sel(service, extra ? `${probeRoutes},${extra}` : probeRoutes);
  return [
    row('Requests (probes and /metrics excluded)'),
    panel({
      title: 'Requests per second by route',
      unit: 'reqps',
      stack: true,
      queries: [q(`sum by (method, route) (rate(http_requests_total${s()}[$__rate_interval]))`, '{{method}} {{route}}')],
    }),
    panel({
      title: '5xx ratio by route',
      unit: 'percentunit',
      min: 0,
      queries: [
        q(
          `sum by (route) (rate(http_requests_total${s('status_code=~"5.."')}[$__rate_interval])) / sum by (route) (rate(http_requests_total${s()}[$__rate_interval]))`,
          '{{route}}',
        ),
      ],
    }),
    panel({
      title: 'Responses per second by status code',
      unit: 'reqps',
      stack: true,
      queries: [q(`sum by (status_code) (rate(http_requests_total${s()}[$__rate_interval]))`, '{{status_code}}')],
    }),
    panel({
      title: 'p99 latency by route',
      unit: 's',
      w: 12,
      queries: [q(`histogram_quantile(0.99, sum by (route, le) (rate(http_request_duration_seconds_bucket${s()}[$__rate_interval])))`, '{{route}}')],
    }),
    panel({
      title: 'p50 latency by route',
      unit: 's',
      w: 12,
      queries: [q(`histogram_quantile(0.5, sum by (route, le) (rate(http_request_duration_seconds_bucket${s()}[$__rate_interval])))`, '{{route}}')],
    }),
    panel({
      title: 'Error envelopes per second by PKC code',
      description: 'pkc_errors_total: every error answer of the central error handler, by code and HTTP status.',
      unit: 'reqps',
      w: 24,
      stack: true,
      queries: [q(`sum by (code, status_code) (rate(pkc_errors_total${sel(service)}[$__rate_interval]))`, '{{code}} ({{status_code}})')],
    }),
  ];
}

function processSection(service) {
  return [
    row('Processes'),
    panel({
      title: 'Ready (1) / not ready (0) by instance',
      type: 'state-timeline',
      w: 12,
      mappings: [{ type: 'value', options: { 0: { text: 'not ready', color: 'red', index: 0 }, 1: { text: 'ready', color: 'green', index: 1 } } }],
      thresholds: okThresholds,
      queries: [q(`max by (instance) (service_ready${sel(service)})`, '{{instance}}')],
    }),
    panel({
      title: 'Scrape target up by instance',
      type: 'state-timeline',
      w: 12,
      mappings: [{ type: 'value', options: { 0: { text: 'down', color: 'red', index: 0 }, 1: { text: 'up', color: 'green', index: 1 } } }],
      thresholds: okThresholds,
      queries: [q(`max by (instance) (up${sel(service)})`, '{{instance}}')],
    }),
    panel({ title: 'CPU (cores) by instance', unit: 'short', w: 6, queries: [q(`sum by (instance) (rate(process_cpu_seconds_total${sel(service)}[$__rate_interval]))`, '{{instance}}')] }),
    panel({ title: 'Resident memory by instance', unit: 'bytes', w: 6, queries: [q(`max by (instance) (process_resident_memory_bytes${sel(service)})`, '{{instance}}')] }),
    panel({ title: 'Heap used by instance', unit: 'bytes', w: 6, queries: [q(`sum by (instance) (nodejs_heap_size_used_bytes${sel(service)})`, '{{instance}}')] }),
    panel({ title: 'Event loop lag p99 by instance', unit: 's', w: 6, queries: [q(`max by (instance) (nodejs_eventloop_lag_p99_seconds${sel(service)})`, '{{instance}}')] }),
  ];
}

function breakerPanel(service, metric, label) {
  return panel({
    title: `Circuit breakers of ${service} (0 closed, 1 half-open, 2 open)`,
    type: 'state-timeline',
    w: 24,
    h: 6,
    mappings: breakerMappings,
    thresholds: breakerThresholds,
    queries: [q(`max by (${label}) (${metric}${sel(service)})`, `{{${label}}}`)],
  });
}

function outboxSection(service) {
  return [
    row('Outbox and bus'),
    panel({ title: 'Outbox: oldest unpublished event (lag)', unit: 's', w: 6, queries: [q(`max(outbox_oldest_pending_age_seconds${sel(service)})`, 'oldest pending')] }),
    panel({ title: 'Outbox: rows not yet published', w: 6, queries: [q(`max(outbox_pending_messages${sel(service)})`, 'pending')] }),
    panel({
      title: 'Outbox: parked rows',
      description: 'Rows the relay gave up on after OUTBOX_PUBLISH_ATTEMPTS_MAX attempts; list and replay with `npm run operator -- outbox-parked` (docs/runbooks.md#pwaoutboxrowsparked).',
      w: 6,
      queries: [q(`max(outbox_parked_rows${sel(service)})`, 'parked')],
    }),
    panel({
      title: 'Events published per second by type (and failed publishes)',
      unit: 'ops',
      w: 6,
      queries: [
        q(`sum by (event_type) (rate(outbox_published_total${sel(service)}[$__rate_interval]))`, '{{event_type}}'),
        q(`sum(rate(outbox_publish_failures_total${sel(service)}[$__rate_interval]))`, 'publish failures'),
      ],
    }),
    busConnectedPanel(service),
  ];
}

function busConnectedPanel(service, w = 24) {
  return panel({
    title: 'Connected to RabbitMQ by instance',
    type: 'state-timeline',
    w,
    h: 5,
    mappings: [{ type: 'value', options: { 0: { text: 'disconnected', color: 'red', index: 0 }, 1: { text: 'connected', color: 'green', index: 1 } } }],
    thresholds: okThresholds,
    queries: [q(`max by (instance) (bus_connected${sel(service)})`, '{{instance}}')],
  });
}

function consumerSection(service) {
  return [
    row('Event consumption'),
    panel({
      title: 'Messages handled per second by queue and outcome',
      unit: 'ops',
      stack: true,
      queries: [q(`sum by (queue, outcome) (rate(bus_messages_consumed_total${sel(service)}[$__rate_interval]))`, '{{queue}} {{outcome}}')],
    }),
    panel({ title: 'Ready messages by queue', queries: [q(`max by (queue) (bus_queue_messages${sel(service)})`, '{{queue}}')] }),
    panel({
      title: 'Dead-lettered messages by queue',
      description: 'Replay with `npm run operator -- replay-dead-letters --queue <name>` after fixing the cause (docs/runbooks.md#pwadeadletters).',
      queries: [q(`max by (queue) (bus_dead_letter_messages${sel(service)})`, '{{queue}}')],
    }),
    busConnectedPanel(service),
  ];
}

// --- Service-specific sections -----------------------------------------------------------------

const specific = {
  gateway: () => [
    row('Edge'),
    breakerPanel('gateway', 'circuit_breaker_state', 'breaker'),
    panel({
      title: 'Partner routes: p99 latency',
      unit: 's',
      w: 12,
      queries: [q(`histogram_quantile(0.99, sum by (route, le) (rate(http_request_duration_seconds_bucket${sel('gateway', 'route=~"/api/v1/partner/.*"')}[$__rate_interval])))`, '{{route}}')],
    }),
    panel({
      title: 'Partner routes: 503 (PKC_7003) and 500 per second',
      unit: 'reqps',
      w: 12,
      queries: [q(`sum by (route, status_code) (rate(http_requests_total${sel('gateway', 'route=~"/api/v1/partner/.*",status_code=~"5.."')}[$__rate_interval]))`, '{{status_code}} {{route}}')],
    }),
    panel({
      title: '429 rejections per second by limit',
      unit: 'reqps',
      w: 12,
      queries: [q(`sum by (limit) (rate(gateway_rate_limit_rejections_total${sel('gateway')}[$__rate_interval]))`, '{{limit}}')],
    }),
    panel({
      title: 'Plain HTTP connections refused per second',
      unit: 'ops',
      w: 12,
      queries: [q(`sum(rate(gateway_plain_http_rejected_total${sel('gateway')}[$__rate_interval]))`, 'refused')],
    }),
    panel({
      title: 'Rate limits counted in memory (Redis unusable) by instance',
      description: "1 while an instance counts its rate limits in its own memory (rate-limiter-flexible's insurance limiter); it returns to Redis by itself (docs/runbooks.md#pwagatewayratelimitfallback).",
      type: 'state-timeline',
      w: 12,
      h: 5,
      mappings: [{ type: 'value', options: { 0: { text: 'redis', color: 'green', index: 0 }, 1: { text: 'memory', color: 'orange', index: 1 } } }],
      thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'orange', value: 1 }] },
      queries: [q(`max by (instance) (gateway_rate_limit_fallback_active${sel('gateway')})`, '{{instance}}')],
    }),
    panel({
      title: 'Share of time in rate-limit fallback by instance',
      unit: 'percentunit',
      w: 12,
      h: 5,
      queries: [q(`sum by (instance) (rate(gateway_rate_limit_fallback_seconds_total${sel('gateway')}[$__rate_interval]))`, '{{instance}}')],
    }),
  ],
  auth: () => [
    row('Tokens'),
    panel({
      title: 'Token endpoint at the gateway by status code',
      description: 'POST /api/v1/partner/auth/token as the gateway answered it (all gateway instances).',
      unit: 'reqps',
      w: 12,
      stack: true,
      queries: [q('sum by (status_code) (rate(http_requests_total{service="gateway",route="/api/v1/partner/auth/token"}[$__rate_interval]))', '{{status_code}}')],
    }),
    panel({
      title: 'Token endpoint 429s by limit (per IP, client lockout)',
      unit: 'reqps',
      w: 12,
      queries: [q('sum by (limit) (rate(gateway_rate_limit_rejections_total{service="gateway",limit=~"token_.*"}[$__rate_interval]))', '{{limit}}')],
    }),
  ],
  wallet: () => [
    row('Ledger'),
    panel({
      title: 'Ledger invariant check',
      type: 'stat',
      w: 6,
      h: 6,
      mappings: [{ type: 'value', options: { 0: { text: 'VIOLATED', color: 'red', index: 0 }, 1: { text: 'ok', color: 'green', index: 1 } } }],
      thresholds: okThresholds,
      queries: [q(`min(ledger_invariant_ok${sel('wallet')})`, 'invariant')],
    }),
    panel({
      title: 'Time since the last invariant check',
      type: 'stat',
      unit: 's',
      w: 6,
      h: 6,
      thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'orange', value: 300 }, { color: 'red', value: 900 }] },
      queries: [q(`time() - max(ledger_invariant_check_last_run_timestamp_seconds${sel('wallet')})`, 'since last check')],
    }),
    panel({
      title: 'Postings per second by type and currency',
      unit: 'ops',
      w: 12,
      h: 6,
      queries: [q(`sum by (type, currency) (rate(ledger_postings_total${sel('wallet')}[$__rate_interval]))`, '{{type}} {{currency}}')],
    }),
    panel({
      title: 'Amount posted per hour by type and currency (major units)',
      w: 12,
      decimals: 2,
      queries: [q(`sum by (type, currency) (increase(ledger_posted_minor_total${sel('wallet')}[1h])) / 100`, '{{type}} {{currency}}')],
    }),
    panel({
      title: 'Balances by account kind and currency (major units)',
      description: 'Sum of balances per account kind; the funding account is the counterpart of money brought in and is the only one below zero.',
      w: 12,
      decimals: 2,
      queries: [q(`max by (kind, currency) (ledger_account_balance_minor${sel('wallet')}) / 100`, '{{kind}} {{currency}}')],
    }),
    panel({
      title: 'Group commit: postings per group (p50, p99)',
      description: 'Single disbursement postings posted together by group commit (decision 0056); 1 when partners are idle, larger when one partner’s postings queue.',
      w: 12,
      queries: [
        q(`histogram_quantile(0.5, sum by (le) (rate(ledger_group_commit_size_bucket${sel('wallet')}[$__rate_interval])))`, 'p50'),
        q(`histogram_quantile(0.99, sum by (le) (rate(ledger_group_commit_size_bucket${sel('wallet')}[$__rate_interval])))`, 'p99'),
      ],
    }),
  ],
  quotes: () => [
    row('Quotes'),
    panel({
      title: 'Quote requests per second by type and outcome',
      unit: 'reqps',
      w: 12,
      stack: true,
      queries: [q(`sum by (type, outcome) (rate(quotes_requests_total${sel('quotes')}[$__rate_interval]))`, '{{type}} {{outcome}}')],
    }),
    panel({
      title: 'Rejected quotes per second by PKC code',
      unit: 'reqps',
      w: 12,
      stack: true,
      queries: [q(`sum by (code) (rate(quotes_requests_total${sel('quotes', 'outcome="rejected"')}[$__rate_interval]))`, '{{code}}')],
    }),
    panel({
      title: 'Quote consumptions per second by outcome and code',
      description: 'Single-use consumption by the confirm services (collections, disbursements).',
      unit: 'ops',
      w: 12,
      queries: [q(`sum by (outcome, code) (rate(quote_consumptions_total${sel('quotes')}[$__rate_interval]))`, '{{outcome}} {{code}}')],
    }),
    breakerPanel('quotes', 'circuit_breaker_state', 'breaker'),
  ],
  collections: () => [
    row('Collections'),
    panel({
      title: 'Collection requests per second by outcome',
      unit: 'reqps',
      stack: true,
      queries: [q(`sum by (outcome) (rate(confirm_requests_total${sel('collections', 'type="collection"')}[$__rate_interval]))`, '{{outcome}}')],
    }),
    panel({
      title: 'Rejected collection requests by PKC code',
      unit: 'reqps',
      stack: true,
      queries: [q(`sum by (code) (rate(confirm_requests_total${sel('collections', 'type="collection",outcome="rejected"')}[$__rate_interval]))`, '{{code}}')],
    }),
    panel({
      title: 'Collections ended per second by state',
      unit: 'ops',
      stack: true,
      queries: [q(`sum by (state) (rate(collections_terminal_total${sel('collections')}[$__rate_interval]))`, '{{state}}')],
    }),
    panel({
      title: 'Time to approval (p50, p95)',
      unit: 's',
      queries: [
        q(`histogram_quantile(0.5, sum by (le) (rate(collection_approval_latency_seconds_bucket${sel('collections')}[$__rate_interval])))`, 'p50'),
        q(`histogram_quantile(0.95, sum by (le) (rate(collection_approval_latency_seconds_bucket${sel('collections')}[$__rate_interval])))`, 'p95'),
      ],
    }),
    panel({
      title: 'Pending more than 60 s past expiresAt (stalled sweeper)',
      thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'red', value: 1 }] },
      queries: [q(`max(collections_pending_overdue${sel('collections')})`, 'overdue')],
    }),
    panel({
      title: 'Time since the last finished expiry sweep',
      unit: 's',
      queries: [q(`time() - max(collection_expiry_sweep_last_success_timestamp_seconds${sel('collections')})`, 'since last sweep')],
    }),
    panel({
      title: 'Processing more than 60 s after approval (stuck postings)',
      description: 'Approved collections whose wallet posting has not settled a minute after the approval; the posting recovery worker re-drives them. See docs/operations.md, Stuck processing rows.',
      w: 12,
      thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'red', value: 1 }] },
      queries: [q(`max(collections_processing_stale${sel('collections')})`, 'stuck')],
    }),
    panel({
      title: 'Time since the last finished posting recovery pass',
      unit: 's',
      w: 12,
      queries: [q(`time() - max(collection_posting_recovery_last_success_timestamp_seconds${sel('collections')})`, 'since last pass')],
    }),
    breakerPanel('collections', 'circuit_breaker_state', 'breaker'),
  ],
  disbursements: () => [
    row('Disbursements'),
    panel({
      title: 'Transfers per second by outcome',
      unit: 'reqps',
      stack: true,
      queries: [q(`sum by (outcome) (rate(confirm_requests_total${sel('disbursements', 'type="disbursement"')}[$__rate_interval]))`, '{{outcome}}')],
    }),
    panel({
      title: 'Rejected transfers by PKC code',
      unit: 'reqps',
      stack: true,
      queries: [q(`sum by (code) (rate(confirm_requests_total${sel('disbursements', 'type="disbursement",outcome="rejected"')}[$__rate_interval]))`, '{{code}}')],
    }),
    panel({
      title: 'Timed-out and unknown transfers (last hour)',
      description: 'Transfers whose outcome was not known within the 25 s budget; the settlement sweep resolves unknown ones.',
      type: 'stat',
      thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'orange', value: 1 }] },
      queries: [q(`sum by (outcome) (increase(disbursement_duration_seconds_count${sel('disbursements', 'outcome=~"timed_out|unknown"')}[1h]))`, '{{outcome}}')],
    }),
    panel({
      title: 'Transfer duration p99 by outcome',
      unit: 's',
      w: 12,
      queries: [q(`histogram_quantile(0.99, sum by (outcome, le) (rate(disbursement_duration_seconds_bucket${sel('disbursements')}[$__rate_interval])))`, '{{outcome}}')],
    }),
    panel({
      title: 'Transfer duration p50 by outcome',
      unit: 's',
      w: 12,
      queries: [q(`histogram_quantile(0.5, sum by (outcome, le) (rate(disbursement_duration_seconds_bucket${sel('disbursements')}[$__rate_interval])))`, '{{outcome}}')],
    }),
    panel({
      title: 'Processing more than 60 s after creation (stuck)',
      description: 'Disbursements the settlement sweep (at about 34 s) could not settle: the wallet answers neither the posting nor the cancellation. See docs/operations.md, Stuck processing rows.',
      w: 12,
      thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'red', value: 1 }] },
      queries: [q(`max(disbursements_processing_stale${sel('disbursements')})`, 'stuck')],
    }),
    panel({
      title: 'Time since the last finished settlement sweep',
      unit: 's',
      w: 12,
      queries: [q(`time() - max(disbursement_settlement_sweep_last_success_timestamp_seconds${sel('disbursements')})`, 'since last sweep')],
    }),
    breakerPanel('disbursements', 'circuit_breaker_state', 'breaker'),
    row('Bulk payouts'),
    panel({
      title: 'Bulk items pending',
      description: 'Items of accepted bulk payouts not yet final (decision 0055). Rises when a bulk is accepted and falls as batches post.',
      w: 8,
      queries: [q(`max(disbursement_bulk_items_pending${sel('disbursements')})`, 'pending')],
    }),
    panel({
      title: 'Oldest processing bulk',
      description: 'Age of the oldest bulk payout still processing; PwaBulkPayoutStalled past 15 minutes. See docs/runbooks.md.',
      unit: 's',
      w: 8,
      thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'orange', value: 300 }, { color: 'red', value: 900 }] },
      queries: [q(`max(disbursement_bulk_oldest_processing_seconds${sel('disbursements')})`, 'oldest')],
    }),
    panel({
      title: 'Bulk items settled per second',
      w: 8,
      queries: [q(`sum(rate(disbursement_bulk_items_settled_total${sel('disbursements')}[$__rate_interval]))`, 'items/s')],
    }),
    panel({
      title: 'Bulk processor: time since the last pass',
      unit: 's',
      w: 12,
      queries: [q(`time() - max(disbursement_bulk_processor_last_pass_timestamp_seconds${sel('disbursements')})`, 'since last pass')],
    }),
  ],
  webhooks: () => [
    row('Deliveries'),
    panel({
      title: 'Delivery success ratio (delivered / delivered + failed)',
      unit: 'percentunit',
      min: 0,
      max: 1,
      queries: [
        q(
          `sum(rate(webhook_deliveries_total${sel('webhooks', 'outcome="delivered"')}[$__rate_interval])) / sum(rate(webhook_deliveries_total${sel('webhooks', 'outcome=~"delivered|failed"')}[$__rate_interval]))`,
          'success',
        ),
      ],
    }),
    panel({
      title: 'Deliveries finished per second by outcome',
      unit: 'ops',
      stack: true,
      queries: [q(`sum by (outcome) (rate(webhook_deliveries_total${sel('webhooks')}[$__rate_interval]))`, '{{outcome}}')],
    }),
    panel({
      title: 'Oldest due, unclaimed delivery (queue lag)',
      unit: 's',
      queries: [q(`max(webhook_queue_lag_seconds${sel('webhooks')})`, 'lag')],
    }),
    panel({
      title: 'Attempt latency p99 and p50 by result',
      unit: 's',
      w: 12,
      queries: [
        q(`histogram_quantile(0.99, sum by (result, le) (rate(webhook_attempt_duration_seconds_bucket${sel('webhooks')}[$__rate_interval])))`, 'p99 {{result}}'),
        q(`histogram_quantile(0.5, sum by (result, le) (rate(webhook_attempt_duration_seconds_bucket${sel('webhooks')}[$__rate_interval])))`, 'p50 {{result}}'),
      ],
    }),
    panel({
      title: 'Attempts and retries per second',
      unit: 'ops',
      w: 12,
      queries: [
        q(`sum by (result) (rate(webhook_attempt_duration_seconds_count${sel('webhooks')}[$__rate_interval]))`, 'attempts {{result}}'),
        q(`sum(rate(webhook_retries_total${sel('webhooks')}[$__rate_interval]))`, 'retries scheduled'),
      ],
    }),
  ],
  backoffice: () => [
    row('Four eyes (approval requests)'),
    panel({
      title: 'Approval requests by status',
      description: 'backoffice_approval_requests: requests now, by status (pending waits for a checker; approved waits for its owner to apply it).',
      w: 12,
      queries: [q(`max by (status) (backoffice_approval_requests${sel('backoffice')})`, '{{status}}')],
    }),
    panel({
      title: 'Oldest approved request not yet executed',
      description: 'backoffice_approved_unexecuted_oldest_seconds: the sweep sends approved requests again every 10 s; a growing age means the owner (wallet, auth, quotes) refuses or is away (PwaBackofficeApprovedNotExecuting).',
      unit: 's',
      w: 12,
      queries: [q(`max(backoffice_approved_unexecuted_oldest_seconds${sel('backoffice')})`, 'oldest approved')],
    }),
    row('People and the audit log'),
    panel({
      title: 'Sign-ins refused in the last 15 minutes by reason',
      description: 'backoffice_sign_in_refusals, from the audit log: account_locked and address_throttled are the throttle and lockout (PwaBackofficeSignInLockouts).',
      w: 12,
      stack: true,
      queries: [q(`max by (reason) (backoffice_sign_in_refusals${sel('backoffice')})`, '{{reason}}')],
    }),
    panel({
      title: 'Audit chain sound (1) / broken (0)',
      type: 'state-timeline',
      w: 6,
      mappings: [{ type: 'value', options: { 0: { text: 'broken', color: 'red', index: 0 }, 1: { text: 'sound', color: 'green', index: 1 } } }],
      thresholds: okThresholds,
      queries: [q(`min(backoffice_audit_chain_intact${sel('backoffice')})`, 'audit chain')],
    }),
    panel({
      title: 'Since the audit chain was last verified',
      unit: 's',
      w: 6,
      queries: [q(`time() - max(backoffice_audit_chain_verified_timestamp_seconds${sel('backoffice')})`, 'since last walk')],
    }),
    panel({
      title: 'Console requests over plain HTTP by outcome',
      description: 'backoffice_plain_http_requests_total: redirected to the https address (a page), or refused unread (anything else).',
      unit: 'reqps',
      w: 24,
      stack: true,
      queries: [q(`sum by (outcome) (rate(backoffice_plain_http_requests_total${sel('backoffice')}[$__rate_interval]))`, '{{outcome}}')],
    }),
  ],
  dashboard: () => [
    row('Members and the partners’ work'),
    panel({
      title: 'Sign-in steps by status code',
      description:
        'POST /api/v1/session (the password) and /api/v1/session/mfa (the code): 202 and 200 pass, 401 a wrong password or code (CON_1001, CON_1003), 429 the lockout and throttle (CON_1002). A wave of 401 and 429 is someone guessing.',
      unit: 'reqps',
      w: 12,
      stack: true,
      queries: [q(`sum by (route, status_code) (rate(http_requests_total${sel('dashboard', 'method="POST",route=~"/api/v1/session|/api/v1/session/mfa"')}[$__rate_interval]))`, '{{route}} {{status_code}}')],
    }),
    panel({
      title: 'Statements and bulk payouts by status code',
      description:
        'GET /api/v1/statement.csv and the bulk payout routes (quote, confirm, progress, outcome). 503 is an owner that did not answer (PKC_7003): nothing changed.',
      unit: 'reqps',
      w: 12,
      stack: true,
      queries: [
        q(
          `sum by (method, route, status_code) (rate(http_requests_total${sel('dashboard', 'route=~"/api/v1/statement.csv|/api/v1/bulk-payouts.*"')}[$__rate_interval]))`,
          '{{method}} {{route}} {{status_code}}',
        ),
      ],
    }),
    panel({
      title: 'Calls to the owners answered 503 (PKC_7003) per second',
      description:
        'The dashboard answers 503 PKC_7003 when auth, the wallet, collections, disbursements or webhooks did not answer within UPSTREAM_TIMEOUT_MS or answered an error (PwaDashboardHighErrorRatio); the route says which page.',
      unit: 'reqps',
      w: 12,
      queries: [q(`sum by (route) (rate(http_requests_total${sel('dashboard', 'status_code="503",route!~"/healthz|/readyz|/metrics"')}[$__rate_interval]))`, '{{route}}')],
    }),
    panel({
      title: 'Requests over plain HTTP by outcome',
      description:
        'dashboard_plain_http_requests_total: redirected to the https address (a page), or refused unread (anything else, 403 PKC_6005). Rising refusals: PwaDashboardPlainHttpRefused; more plain than served: PwaDashboardMostlyPlainHttp (an ingress that does not pass X-Forwarded-Proto https).',
      unit: 'reqps',
      w: 12,
      stack: true,
      queries: [q(`sum by (outcome) (rate(dashboard_plain_http_requests_total${sel('dashboard')}[$__rate_interval]))`, '{{outcome}}')],
    }),
    row('Sign-ins and the partners’ audit log'),
    panel({
      title: 'Sign-ins refused in the last 15 minutes by reason',
      description:
        'dashboard_sign_in_refusals, from the partners’ audit log (member.sign_in.*): account_locked and address_throttled are the lockout and throttle (PwaDashboardSignInLockouts); many no_active_member_with_this_address is someone guessing addresses.',
      w: 12,
      stack: true,
      queries: [q(`max by (reason) (dashboard_sign_in_refusals${sel('dashboard')})`, '{{reason}}')],
    }),
    panel({
      title: 'Audit chain sound (1) / broken (0)',
      description: 'dashboard_audit_chain_intact: each replica walks the partners’ audit log at start and every 15 minutes (PwaDashboardAuditChainBroken).',
      type: 'state-timeline',
      w: 6,
      mappings: [{ type: 'value', options: { 0: { text: 'broken', color: 'red', index: 0 }, 1: { text: 'sound', color: 'green', index: 1 } } }],
      thresholds: okThresholds,
      queries: [q(`min(dashboard_audit_chain_intact${sel('dashboard')})`, 'audit chain')],
    }),
    panel({
      title: 'Since the audit chain was last verified',
      description: 'From dashboard_audit_chain_verified_timestamp_seconds; above 2 hours, the walks fail (PwaDashboardAuditChainUnverified).',
      unit: 's',
      w: 6,
      queries: [q(`time() - max(dashboard_audit_chain_verified_timestamp_seconds${sel('dashboard')})`, 'since last walk')],
    }),
  ],
};

/** What each service does on the bus (docs/metrics.md, ARCHITECTURE.md). */
const messaging = {
  gateway: ['consumer'],
  auth: ['producer'],
  wallet: [],
  quotes: [],
  collections: ['producer'],
  disbursements: ['producer'],
  webhooks: ['consumer'],
  backoffice: [],
  dashboard: [],
};

const titles = {
  gateway: 'gateway (public edge)',
  auth: 'auth (tokens, partners)',
  wallet: 'wallet (ledger)',
  quotes: 'quotes',
  collections: 'collections',
  disbursements: 'disbursements',
  webhooks: 'webhooks (partner notifications)',
  backoffice: 'backoffice (operators’ console)',
  dashboard: 'dashboard (partners’ console)',
};

function serviceDashboard(service) {
  const roles = messaging[service];
  return dashboard({
    uid: `pwa-${service}`,
    title: `Partner Wallet API — ${titles[service]}`,
    description: `One service: its requests, its own metrics, messaging and processes. Metrics: docs/metrics.md. Alerts: docs/runbooks.md.`,
    tags: [service],
    variables: [queryVariable('instance', 'Instance', `label_values(up{service="${service}"}, instance)`)],
    items: [
      ...specific[service](),
      ...redSection(service),
      ...(roles.includes('producer') ? outboxSection(service) : []),
      ...(roles.includes('consumer') ? consumerSection(service) : []),
      ...processSection(service),
    ],
  });
}

/**
 * The SLO panels of the overview: per SLO, the share of its 30-day error budget left, and its burn
 * rate over the last hour (1 spends the budget in exactly 30 days; the fast-burn alert pages above
 * 14.4 with the 5-minute ratio agreeing). One query per SLO: each divides by its own budget.
 */
function sloPanels() {
  const slos = loadSlos().slos;
  const perSlo = (expression) => slos.map((slo) => q(expression(`{slo="${slo.name}"}`, budgetOf(slo)), slo.title));
  return [
    panel({
      title: 'SLOs: error budget left over 30 days',
      description: 'docs/slos.md. 1 - (the mean 5-minute error ratio over 30 days) / (1 - objective). Below 0: the objective is missed for the period.',
      type: 'bargauge',
      unit: 'percentunit',
      w: 12,
      h: 10,
      max: 1,
      decimals: 1,
      thresholds: { mode: 'absolute', steps: [{ color: 'red', value: null }, { color: 'orange', value: 0.25 }, { color: 'green', value: 0.5 }] },
      queries: perSlo((selector, budget) => `1 - max(pwa_slo:sli_error:ratio_rate30d${selector}) / ${budget}`),
    }),
    panel({
      title: 'SLOs: burn rate over the last hour',
      description: 'The error ratio over 1 hour divided by the error budget. 1 spends the 30-day budget in 30 days; the FastBurn alerts page above 14.4 (1h and 5m) or 6 (6h and 30m), the SlowBurn tickets above 3 (1d and 2h) or 1 (3d and 6h).',
      unit: 'short',
      w: 12,
      h: 10,
      min: 0,
      queries: perSlo((selector, budget) => `max(pwa_slo:sli_error:ratio_rate1h${selector}) / ${budget}`),
    }),
  ];
}

function overviewDashboard() {
  const svc = 'service=~"$service"';
  return dashboard({
    uid: 'pwa-overview',
    title: 'Partner Wallet API — overview',
    description: 'Is the API healthy, is money moving. Drill down with the per-service dashboards (links, top right).',
    tags: ['overview'],
    variables: [queryVariable('service', 'Service', 'label_values(http_requests_total, service)')],
    // No row panels here: every overview panel carries queries (test/deploy/compose.test.ts reads them).
    withRows: false,
    items: [
      panel({
        title: 'Ready instances by service',
        type: 'stat',
        w: 12,
        h: 4,
        thresholds: okThresholds,
        queries: [q(`sum by (service) (service_ready{${svc}})`, '{{service}}')],
      }),
      panel({
        title: 'Ledger invariant',
        type: 'stat',
        w: 4,
        h: 4,
        mappings: [{ type: 'value', options: { 0: { text: 'VIOLATED', color: 'red', index: 0 }, 1: { text: 'ok', color: 'green', index: 1 } } }],
        thresholds: okThresholds,
        queries: [q('min(ledger_invariant_ok{service="wallet"})', 'invariant')],
      }),
      panel({
        title: 'Webhook delivery success (1h)',
        type: 'stat',
        unit: 'percentunit',
        w: 4,
        h: 4,
        decimals: 1,
        thresholds: { mode: 'absolute', steps: [{ color: 'red', value: null }, { color: 'orange', value: 0.9 }, { color: 'green', value: 0.99 }] },
        queries: [
          q(
            'sum(increase(webhook_deliveries_total{service="webhooks",outcome="delivered"}[1h])) / sum(increase(webhook_deliveries_total{service="webhooks",outcome=~"delivered|failed"}[1h]))',
            'delivered',
          ),
        ],
      }),
      panel({
        title: 'Dead-lettered messages',
        type: 'stat',
        w: 4,
        h: 4,
        thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'red', value: 1 }] },
        queries: [q(`sum(bus_dead_letter_messages{${svc}})`, 'dead letters')],
      }),
      panel({
        title: 'Requests per second by service',
        unit: 'reqps',
        w: 12,
        queries: [q(`sum by (service) (rate(http_requests_total{${svc},${probeRoutes}}[$__rate_interval]))`, '{{service}}')],
      }),
      panel({
        title: '5xx ratio by service',
        unit: 'percentunit',
        min: 0,
        w: 12,
        queries: [
          q(
            `sum by (service) (rate(http_requests_total{${svc},${probeRoutes},status_code=~"5.."}[$__rate_interval])) / sum by (service) (rate(http_requests_total{${svc},${probeRoutes}}[$__rate_interval]))`,
            '{{service}}',
          ),
        ],
      }),
      panel({
        title: 'p99 latency of partner routes at the gateway',
        unit: 's',
        w: 12,
        queries: [q('histogram_quantile(0.99, sum by (route, le) (rate(http_request_duration_seconds_bucket{service="gateway",route=~"/api/v1/partner/.*"}[$__rate_interval])))', '{{route}}')],
      }),
      panel({
        title: 'p99 latency by service',
        unit: 's',
        w: 12,
        queries: [q(`histogram_quantile(0.99, sum by (service, le) (rate(http_request_duration_seconds_bucket{${svc},${probeRoutes}}[$__rate_interval])))`, '{{service}}')],
      }),
      panel({
        title: 'Requests per second by status code',
        unit: 'reqps',
        w: 12,
        stack: true,
        queries: [q(`sum by (status_code) (rate(http_requests_total{${svc},${probeRoutes}}[$__rate_interval]))`, '{{status_code}}')],
      }),
      panel({
        title: 'Confirms per second by type and outcome',
        description: 'Collection requests and disbursement transfers: accepted / completed or rejected.',
        unit: 'reqps',
        w: 12,
        stack: true,
        queries: [q('sum by (type, outcome) (rate(confirm_requests_total[$__rate_interval]))', '{{type}} {{outcome}}')],
      }),
      panel({
        title: 'Amount posted per hour by currency and type (major units)',
        w: 12,
        decimals: 2,
        queries: [q('sum by (currency, type) (increase(ledger_posted_minor_total{service="wallet"}[1h])) / 100', '{{currency}} {{type}}')],
      }),
      panel({
        title: 'Balances by currency and account kind (major units)',
        w: 12,
        decimals: 2,
        queries: [q('max by (currency, kind) (ledger_account_balance_minor{service="wallet"}) / 100', '{{currency}} {{kind}}')],
      }),
      panel({
        title: 'Webhook deliveries finished per second by outcome',
        unit: 'ops',
        w: 12,
        stack: true,
        queries: [q('sum by (outcome) (rate(webhook_deliveries_total{service="webhooks"}[$__rate_interval]))', '{{outcome}}')],
      }),
      panel({
        title: 'Outbox lag by service',
        unit: 's',
        w: 12,
        queries: [q(`max by (service) (outbox_oldest_pending_age_seconds{${svc}})`, '{{service}}')],
      }),
      panel({
        title: 'Gateway circuit breakers (0 closed, 1 half-open, 2 open)',
        type: 'state-timeline',
        w: 12,
        h: 6,
        mappings: breakerMappings,
        thresholds: breakerThresholds,
        queries: [q('max by (breaker) (circuit_breaker_state{service="gateway"})', '{{breaker}}')],
      }),
      panel({
        title: 'Service circuit breakers (0 closed, 1 half-open, 2 open)',
        type: 'state-timeline',
        w: 12,
        h: 6,
        mappings: breakerMappings,
        thresholds: breakerThresholds,
        queries: [q(`max by (service, breaker) (circuit_breaker_state{${svc},service!="gateway"})`, '{{service}} → {{breaker}}')],
      }),
      ...sloPanels(),
    ],
  });
}

/** Every dashboard file name and its JSON text. */
function renderAll() {
  const files = { 'overview.json': overviewDashboard() };
  for (const service of services) files[`${service}.json`] = serviceDashboard(service);
  return Object.fromEntries(Object.entries(files).map(([name, content]) => [name, `${JSON.stringify(content, null, 2)}\n`]));
}

module.exports = { renderAll };

if (require.main === module) {
  const directory = path.join(__dirname, 'dashboards');
  for (const [name, text] of Object.entries(renderAll())) {
    fs.writeFileSync(path.join(directory, name), text);
    console.log(`wrote ${path.relative(process.cwd(), path.join(directory, name))}`);
  }
}
