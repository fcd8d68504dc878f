import { startOutboxRelay, type Bus, type OutboxRelay } from '@pwa/bus';
import type { OutboxConfig } from '@pwa/config';
import type { ServiceContext } from './service-host';

export interface ServiceOutboxRelayOptions {
  /** The relay polls the service's pool, logs with its logger and reports on its registry. */
  context: Pick<ServiceContext, 'pool' | 'logger' | 'registry'>;
  bus: Bus;
  /** OUTBOX_POLL_INTERVAL_MS and OUTBOX_PUBLISH_ATTEMPTS_MAX. */
  config: OutboxConfig;
  /**
   * Starts the relay this long after boot when positive: the crash-safety tests' hook
   * (OUTBOX_RELAY_START_DELAY_MS, sandbox only). A process that commits events but has not relayed
   * them yet can then be killed, and a fresh process must publish them. Until the relay starts,
   * committed events wait in the outbox, flushNow() publishes nothing and stop() cancels the start.
   */
  startDelayMs?: number;
}

/** The outbox relay of a service that publishes events, with the service's settings. */
export function startServiceOutboxRelay(options: ServiceOutboxRelayOptions): OutboxRelay {
  const start = (): OutboxRelay =>
    startOutboxRelay({
      pool: options.context.pool,
      bus: options.bus,
      logger: options.context.logger,
      pollIntervalMs: options.config.OUTBOX_POLL_INTERVAL_MS,
      publishAttemptsMax: options.config.OUTBOX_PUBLISH_ATTEMPTS_MAX,
      registry: options.context.registry,
    });
  const startDelayMs = options.startDelayMs ?? 0;
  if (startDelayMs <= 0) return start();
  let relay: OutboxRelay | undefined;
  const timer = setTimeout(() => {
    relay = start();
  }, startDelayMs);
  return {
    flushNow: () => (relay ? relay.flushNow() : Promise.resolve(0)),
    stop: async () => {
      clearTimeout(timer);
      await relay?.stop();
    },
  };
}
