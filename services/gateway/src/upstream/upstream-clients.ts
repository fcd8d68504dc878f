import type { Registry } from 'prom-client';
import { createCircuitBreakerStates, createUpstreamClient, type BreakerSettings, type UpstreamClient } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import { upstreamNames, type UpstreamName } from '../domain/routes';

export type UpstreamClients = Readonly<Record<UpstreamName, UpstreamClient>>;

export interface UpstreamClientSettings {
  baseUrls: Readonly<Record<UpstreamName, string>>;
  /** Most concurrent sockets to each upstream; further requests queue, still under their deadline. */
  maxSockets: number;
  breaker: BreakerSettings;
}

/**
 * One libs/http upstream client per internal service, made once at start: its keep-alive socket
 * pool and its breaker, shared by all its routes, reported as `circuit_breaker_state{breaker=<upstream>}`.
 * The gateway relays (UpstreamClient.relay): an upstream's own 4xx or 5xx envelope is an answer
 * passed on unchanged, so only calls that left nothing to relay count against the breaker; and
 * routes of one upstream have different deadlines, which each request carries.
 */
export function createUpstreamClients(settings: UpstreamClientSettings, registry: Registry, logger: Logger): UpstreamClients {
  const states = createCircuitBreakerStates();
  states.register(registry);
  const entries = upstreamNames.map((name) => {
    const client = createUpstreamClient({
      name,
      baseUrl: settings.baseUrls[name],
      maxSockets: settings.maxSockets,
      breaker: settings.breaker,
      logger,
      watchBreaker: states.watch,
      openedMessage: 'circuit opened: requests to this upstream fail fast with PKC_7003',
    });
    return [name, client] as const;
  });
  return Object.fromEntries(entries) as Record<UpstreamName, UpstreamClient>;
}

/** Stops every breaker's timers and destroys every pooled socket. */
export function shutdownUpstreamClients(clients: UpstreamClients): void {
  for (const name of upstreamNames) clients[name].shutdown();
}
