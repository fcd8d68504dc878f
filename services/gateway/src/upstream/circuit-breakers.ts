import type { Registry } from 'prom-client';
import { createCircuitBreaker, createCircuitBreakerStates, type BreakerSettings, type GuardedCall } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { UpstreamName } from '../domain/routes';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from './upstream-client';

export { isBreakerRefusal } from '@pwa/http';

export type UpstreamBreaker = GuardedCall<[UpstreamRequest], UpstreamResponse>;

/**
 * One breaker per upstream service (libs/http createCircuitBreaker, as in every service), shared by
 * all its routes, reported as `circuit_breaker_state{breaker=<upstream>}`. What is relay-specific
 * stays here: only transport failures (refused, reset, timed out) count against it, because the
 * relay passes an upstream's own 4xx or 5xx envelope on unchanged as an answer; and routes of one
 * upstream have different deadlines, which each request carries.
 */
export function createUpstreamBreakers(
  clients: Readonly<Record<UpstreamName, UpstreamClient>>,
  settings: BreakerSettings,
  registry: Registry,
  logger: Logger,
): Record<UpstreamName, UpstreamBreaker> {
  const states = createCircuitBreakerStates();
  states.register(registry);
  const entries = (Object.entries(clients) as [UpstreamName, UpstreamClient][]).map(([upstream, client]) => {
    const breaker = createCircuitBreaker({
      name: upstream,
      call: (request: UpstreamRequest) => client.send(request),
      settings,
      logger,
      watchBreaker: states.watch,
      openedMessage: 'circuit opened: requests to this upstream fail fast with PKC_7003',
    });
    return [upstream, breaker] as const;
  });
  return Object.fromEntries(entries) as Record<UpstreamName, UpstreamBreaker>;
}
