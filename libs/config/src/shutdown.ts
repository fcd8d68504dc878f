import { z } from 'zod';

/** The graceful stop's settings (docs/operations.md), the same in every service and the gateway (libs/runtime runUntilSignalled reads them). */
export const shutdownConfigFields = {
  /** Graceful stop (docs/operations.md): /readyz answers 503 this long before the listener closes, so load balancers stop sending first. */
  SHUTDOWN_DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** Bound of the whole graceful stop, from the signal to the exit; past it the process exits 1. Keep it below the pod's termination grace period (40 s). */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
};
