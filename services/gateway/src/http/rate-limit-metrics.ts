import type { ErrorRequestHandler, Response } from 'express';
import { Counter, Gauge, type Registry } from 'prom-client';
import { isPkcError } from '@pwa/errors';
import { contextOf } from './request-context';

/** Which of the gateway's limits refused a request with 429 PKC_7001. */
export const rateLimits = ['partner', 'token_ip', 'token_client_lockout'] as const;
export type RateLimit = (typeof rateLimits)[number];

export interface RateLimitMetrics {
  rejected(limit: RateLimit): void;
}

/** `gateway_rate_limit_rejections_total{limit}`, every limit at 0 from the start. */
export function createRateLimitMetrics(registry: Registry): RateLimitMetrics {
  const rejections = new Counter({
    name: 'gateway_rate_limit_rejections_total',
    help: 'Requests the gateway refused with 429 PKC_7001, by limit: partner (per-partner window), token_ip (token endpoint per source address), token_client_lockout (failed secrets of a client_id)',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  for (const limit of rateLimits) rejections.inc({ limit }, 0);
  return { rejected: (limit) => rejections.inc({ limit }) };
}

/** What the fallback metrics read at scrape time (services/gateway/src/redis/redis-fallback.ts). */
export interface RateLimitFallbackSource {
  isActive(): boolean;
  secondsTotal(): number;
}

/**
 * `gateway_rate_limit_fallback_active` (1 while the limits are counted in this instance's memory
 * because Redis cannot be used) and `gateway_rate_limit_fallback_seconds_total` (time spent so, the
 * current fallback included), both read at scrape time.
 */
export function registerRateLimitFallbackMetrics(registry: Registry, fallback: RateLimitFallbackSource): void {
  new Gauge({
    name: 'gateway_rate_limit_fallback_active',
    help: "1 while this gateway counts its rate limits in its own memory because Redis cannot be used (each replica then allows the whole limit), 0 while Redis counts them",
    registers: [registry],
    collect() {
      this.set(fallback.isActive() ? 1 : 0);
    },
  });
  new Counter({
    name: 'gateway_rate_limit_fallback_seconds_total',
    help: 'Seconds this gateway has counted its rate limits in memory because Redis could not be used',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(fallback.secondsTotal());
    },
  });
}

/** Where a limit refuses a request (admission, the token endpoint's lockout), it notes which; the counting handler below reads it. */
export function noteRateLimitRejection(res: Response, error: unknown, limit: RateLimit): void {
  if (isPkcError(error) && error.code === 'PKC_7001') contextOf(res).rateLimitedBy = limit;
}

/**
 * Counts every PKC_7001 the gateway answers itself, once, on its way to the error handler, by the
 * limit the refusing step noted: the per-partner window and the token endpoint's source budget in
 * admission, the client lockout in forwarding (once the body names a client_id).
 */
export function countRateLimitRejections(metrics: RateLimitMetrics): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (isPkcError(error) && error.code === 'PKC_7001') {
      const limit = contextOf(res).rateLimitedBy;
      if (limit !== undefined) metrics.rejected(limit);
    }
    next(error);
  };
}
