import { PkcError } from '@pwa/errors';
import { createLogger } from '@pwa/logging';
import { Registry } from 'prom-client';
import { circuitBreakerStateOf, createApp, createCircuitBreakerStates, listen, sendErrorEnvelope, type RunningServer } from '../../src';
import { seriesValue } from '../../../../test/support/prometheus-text';

const logger = createLogger({ service: 'metrics-test', level: 'silent' });

/** The value of one series in Prometheus text, matched by name and a subset of its labels. */

describe('pkc_errors_total', () => {
  let server: RunningServer;
  let baseUrl: string;

  beforeAll(async () => {
    const { app } = createApp({
      serviceName: 'metrics-test',
      logger,
      routes: (expressApp) => {
        expressApp.get('/refuse', () => {
          throw new PkcError('PKC_7001');
        });
        expressApp.get('/crash', () => {
          throw new Error('boom');
        });
        expressApp.get('/conflict', (_req, res) => sendErrorEnvelope(res, 409, 'PKC_7004', 'cancelled'));
        expressApp.post('/echo', (req, res) => {
          res.json({ success: true, data: req.body as unknown });
        });
      },
    });
    server = await listen(app, 0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${server.port}`;
  });

  afterAll(async () => {
    await server.close();
  });

  it('when envelopes are answered by the error handler, the 404, the body parser and a route itself, then each is counted by code and status', async () => {
    await fetch(`${baseUrl}/refuse`);
    await fetch(`${baseUrl}/refuse`);
    await fetch(`${baseUrl}/crash`);
    await fetch(`${baseUrl}/conflict`);
    await fetch(`${baseUrl}/nowhere`);
    await fetch(`${baseUrl}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    await fetch(`${baseUrl}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });

    const text = await (await fetch(`${baseUrl}/metrics`)).text();

    expect(seriesValue(text, 'pkc_errors_total', { code: 'PKC_7001', status_code: '429', service: 'metrics-test' })).toBe(2);
    expect(seriesValue(text, 'pkc_errors_total', { code: 'PKC_7002', status_code: '500' })).toBe(1);
    expect(seriesValue(text, 'pkc_errors_total', { code: 'PKC_7004', status_code: '409' })).toBe(1);
    expect(seriesValue(text, 'pkc_errors_total', { code: 'PKC_6002', status_code: '404' })).toBe(1);
    expect(seriesValue(text, 'pkc_errors_total', { code: 'PKC_2008', status_code: '400' })).toBe(1);
    expect(text.split('\n').filter((line) => line.startsWith('pkc_errors_total{'))).toHaveLength(5);
  });
});

describe('circuit_breaker_state', () => {
  it('when breakers are watched, then the gauge reads each one at scrape time: 0 closed, 1 half-open, 2 open', async () => {
    const quotes = { opened: false, halfOpen: false };
    const wallet = { opened: true, halfOpen: false };
    const states = createCircuitBreakerStates();
    states.watch('quotes', quotes);
    states.watch('wallet', wallet);
    const registry = new Registry();
    states.register(registry);

    const first = await registry.metrics();
    quotes.halfOpen = true;
    wallet.opened = false;
    const second = await registry.metrics();

    expect(seriesValue(first, 'circuit_breaker_state', { breaker: 'quotes' })).toBe(0);
    expect(seriesValue(first, 'circuit_breaker_state', { breaker: 'wallet' })).toBe(2);
    expect(seriesValue(second, 'circuit_breaker_state', { breaker: 'quotes' })).toBe(1);
    expect(seriesValue(second, 'circuit_breaker_state', { breaker: 'wallet' })).toBe(0);
  });

  it('when a breaker reports open, then open wins over half-open', () => {
    expect(circuitBreakerStateOf({ opened: true, halfOpen: true })).toBe(2);
  });
});
