import CircuitBreaker from 'opossum';
import { Gauge, type Registry } from 'prom-client';
import type { Logger } from '@pwa/logging';
import type { UpstreamName } from '../domain/routes';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from './upstream-client';

export interface BreakerSettings {
  errorThresholdPercent: number;
  volumeThreshold: number;
  resetTimeoutMs: number;
  rollingWindowMs: number;
}

export type UpstreamBreaker = CircuitBreaker<[UpstreamRequest], UpstreamResponse>;

/** Breaker codes opossum uses when it refuses a call without trying the upstream. */
const refusedWithoutTrying = new Set(['EOPENBREAKER', 'ESEMLOCKED', 'ESHUTDOWN']);

export function isBreakerRefusal(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && refusedWithoutTrying.has(code);
}

const breakerStateValue = { closed: 0, halfOpen: 1, open: 2 } as const;

/**
 * One breaker per upstream service, shared by all its routes. Only transport failures (refused,
 * reset, timed out) count against it: an upstream's own 4xx or 5xx envelope is an answer, relayed
 * unchanged. The breaker has no timeout of its own because routes of one upstream have different
 * deadlines; the client enforces each request's deadline and reports it as a failure.
 */
export function createUpstreamBreakers(
  clients: Readonly<Record<UpstreamName, UpstreamClient>>,
  settings: BreakerSettings,
  registry: Registry,
  logger: Logger,
): Record<UpstreamName, UpstreamBreaker> {
  const stateGauge = new Gauge({
    name: 'gateway_upstream_circuit_state',
    help: 'Circuit breaker state per upstream service: 0 closed, 1 half-open, 2 open',
    labelNames: ['upstream'] as const,
    registers: [registry],
  });
  const entries = (Object.entries(clients) as [UpstreamName, UpstreamClient][]).map(([upstream, client]) => {
    const breaker: UpstreamBreaker = new CircuitBreaker((request: UpstreamRequest) => client.send(request), {
      name: upstream,
      timeout: false,
      errorThresholdPercentage: settings.errorThresholdPercent,
      volumeThreshold: settings.volumeThreshold,
      resetTimeout: settings.resetTimeoutMs,
      rollingCountTimeout: settings.rollingWindowMs,
    });
    stateGauge.set({ upstream }, breakerStateValue.closed);
    breaker.on('open', () => {
      stateGauge.set({ upstream }, breakerStateValue.open);
      logger.warn({ upstream }, 'circuit opened: requests to this upstream fail fast with PKC_7003');
    });
    breaker.on('halfOpen', () => stateGauge.set({ upstream }, breakerStateValue.halfOpen));
    breaker.on('close', () => {
      stateGauge.set({ upstream }, breakerStateValue.closed);
      logger.info({ upstream }, 'circuit closed');
    });
    return [upstream, breaker] as const;
  });
  return Object.fromEntries(entries) as Record<UpstreamName, UpstreamBreaker>;
}
