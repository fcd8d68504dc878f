import { z } from 'zod';
import { fields } from './fields';
import type { RenamedKey } from './renamed-keys';

/**
 * The circuit breaker settings of a service's calls to other services, one name in every service
 * (the gateway's per upstream, quotes' towards the wallet, collections' and disbursements' towards
 * quotes and the wallet).
 */
export const breakerConfigFields = {
  /** Share of failed calls in the window, in percent, that opens the breaker. */
  BREAKER_ERROR_THRESHOLD_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  /** Calls in the window before the breaker may open at all. */
  BREAKER_VOLUME_THRESHOLD: fields.positiveInt(5),
  /** How long an open breaker waits before it lets one trial call through. */
  BREAKER_RESET_TIMEOUT_MS: fields.milliseconds(5_000),
  /** The window the failure share is measured over. */
  BREAKER_ROLLING_WINDOW_MS: fields.milliseconds(10_000),
};

export type BreakerConfig = z.output<z.ZodObject<typeof breakerConfigFields>>;

/** The settings in the shape the HTTP clients' breakers take. */
export function breakerSettingsOf(config: BreakerConfig): { errorThresholdPercent: number; volumeThreshold: number; resetTimeoutMs: number; rollingWindowMs: number } {
  return {
    errorThresholdPercent: config.BREAKER_ERROR_THRESHOLD_PERCENT,
    volumeThreshold: config.BREAKER_VOLUME_THRESHOLD,
    resetTimeoutMs: config.BREAKER_RESET_TIMEOUT_MS,
    rollingWindowMs: config.BREAKER_ROLLING_WINDOW_MS,
  };
}

/**
 * The names the breaker keys had before they shared one prefix: UPSTREAM_BREAKER_* (collections,
 * disbursements) and WALLET_BREAKER_* (quotes). Read as aliases for one release, with a warning.
 */
export function breakerKeysRenamedFrom(prefix: 'UPSTREAM_' | 'WALLET_'): RenamedKey[] {
  return Object.keys(breakerConfigFields).map((current) => ({ deprecated: `${prefix}${current}`, current }));
}
