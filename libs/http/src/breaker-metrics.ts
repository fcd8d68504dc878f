import { Gauge, type Registry } from 'prom-client';

/** What the state gauge reads from a breaker; opossum's CircuitBreaker has both getters. */
export interface BreakerStateSource {
  readonly opened: boolean;
  readonly halfOpen: boolean;
}

/** Reports a breaker under `breaker=<name>`; given to the code that creates the breaker. */
export type WatchBreaker = (name: string, breaker: BreakerStateSource) => void;

/** The values of `circuit_breaker_state`: 0 closed, 1 half-open, 2 open. */
export const circuitBreakerStateValue = { closed: 0, halfOpen: 1, open: 2 } as const;

export function circuitBreakerStateOf(breaker: BreakerStateSource): 0 | 1 | 2 {
  if (breaker.opened) return circuitBreakerStateValue.open;
  if (breaker.halfOpen) return circuitBreakerStateValue.halfOpen;
  return circuitBreakerStateValue.closed;
}

export interface CircuitBreakerStates {
  /** Adds a breaker; its state is read at every scrape from then on. */
  watch: WatchBreaker;
  /** Serves `circuit_breaker_state{breaker}` from the service's registry (once per registry). */
  register(registry: Registry): void;
}

/**
 * `circuit_breaker_state{breaker}`: the one gauge of every service's breakers (the gateway's too,
 * one per upstream). Breakers are usually made before the service's registry
 * exists, so they are watched first and the gauge is registered once the registry is known. The
 * state is read from each breaker at scrape time, so no transition can be missed.
 */
export function createCircuitBreakerStates(): CircuitBreakerStates {
  const breakers = new Map<string, BreakerStateSource>();
  return {
    watch: (name, breaker) => {
      breakers.set(name, breaker);
    },
    register: (registry) => {
      new Gauge({
        name: 'circuit_breaker_state',
        help: 'Circuit breaker state per upstream this service calls: 0 closed, 1 half-open, 2 open',
        labelNames: ['breaker'] as const,
        registers: [registry],
        collect() {
          for (const [name, breaker] of breakers) this.set({ breaker: name }, circuitBreakerStateOf(breaker));
        },
      });
    },
  };
}
