import { startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from '@pwa/bus';

/**
 * Starts the outbox relay, after `startDelayMs` when it is positive. The delay exists for the
 * crash-safety tests (OUTBOX_RELAY_START_DELAY_MS, refused in production): a process that commits
 * events but has not relayed them yet can be killed, and a fresh process must then publish them.
 * Until the relay starts, committed events simply wait in the outbox; stop() cancels a pending start.
 */
export function startServiceOutboxRelay(options: OutboxRelayOptions, startDelayMs: number): OutboxRelay {
  if (startDelayMs <= 0) return startOutboxRelay(options);
  let relay: OutboxRelay | undefined;
  const timer = setTimeout(() => {
    relay = startOutboxRelay(options);
  }, startDelayMs);
  return {
    flushNow: () => (relay ? relay.flushNow() : Promise.resolve(0)),
    stop: async () => {
      clearTimeout(timer);
      await relay?.stop();
    },
  };
}
