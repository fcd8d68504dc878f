import type { Response } from 'express';
import type { Admission } from '../domain/admit-partner-request';
import type { RouteDefinition } from '../domain/routes';
import type { RateLimit } from './rate-limit-metrics';

/** What the gateway learns about a request as it passes the pipeline; kept on res.locals. */
export interface GatewayRequestContext {
  route?: RouteDefinition;
  /** Path (and query) to request from the upstream: the public path without /api/v1. */
  upstreamPath?: string;
  admission?: Admission;
  /** Why the request was answered 503, for the request log (never sent to the partner). */
  unavailableBecause?: string;
  /** The limit that refused the request in admission (429 PKC_7001), for the rate-limit metrics. */
  rateLimitedBy?: RateLimit;
}

export function contextOf(res: Response): GatewayRequestContext {
  const locals = res.locals as { gateway?: GatewayRequestContext };
  locals.gateway ??= {};
  return locals.gateway;
}
