import type { Express, Request, RequestHandler } from 'express';
import { publicApi } from '@pwa/contracts';
import { createApp, type HttpMetrics } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { AdmissionPorts, AdmissionSettings } from '../domain/admit-partner-request';
import type { TokenEndpointPorts } from '../domain/guard-token-endpoint';
import { routeTable, routesForEnvironment, type Environment } from '../domain/routes';
import { admitRequest, matchPublicRoute } from './admission';
import { forwardAdmittedRequests, type ForwardingOptions } from './forward';
import { requireForwardedHttps, strictTransportSecurity } from './https-only';
import { tokenEndpointBodyErrors } from './token-body-errors';
import { contextOf } from './request-context';
import { logEachRequest } from './request-log';
import { countRateLimitRejections, type RateLimitMetrics } from './rate-limit-metrics';

export interface PublicAppOptions {
  logger: Logger;
  /** Production serves no sandbox-only route. */
  environment: Environment;
  metrics: HttpMetrics;
  rateLimitMetrics: RateLimitMetrics;
  tlsMode: 'terminate' | 'proxy';
  trustedProxies: string;
  hstsMaxAgeSeconds: number;
  ports: AdmissionPorts & TokenEndpointPorts;
  admissionSettings: AdmissionSettings;
  forwarding: ForwardingOptions;
  onPlainHttpRejected: () => void;
  /** True once stop() began: responses then close their connection so the listener can drain. */
  isStopping: () => boolean;
}

/**
 * The partner-facing app. Order matters: HTTPS, route match, admission (all before the body is
 * read), then body parsing (16 kb, or the contract's largeRequestBodyLimit on a route marked largeBody, by createApp;
 * the route is matched before the body is read; unreadable bodies are 400 PKC_2008, or 401
 * PKC_1001 on the token endpoint), then forwarding. Health and metrics are not
 * here; they live on the admin listener only.
 */
export function createPublicApp(options: PublicAppOptions): Express {
  const before: RequestHandler[] = [logEachRequest(options.logger), closeWhenStopping(options.isStopping)];
  if (options.tlsMode === 'proxy') before.push(requireForwardedHttps(options.onPlainHttpRejected));
  before.push(strictTransportSecurity(options.hstsMaxAgeSeconds), matchPublicRoute(routesForEnvironment(routeTable, options.environment)), admitRequest(options.ports, options.admissionSettings));
  const { app } = createApp({
    serviceName: 'gateway',
    logger: options.logger,
    metrics: options.metrics,
    jsonBodyLimit: '16kb',
    largeJsonBody: { limit: publicApi.largeRequestBodyLimit, appliesTo: routeTakesLargeBody },
    mountOperationalRoutes: false,
    before,
    routes: (expressApp) => {
      expressApp.use(forwardAdmittedRequests(options.forwarding));
      expressApp.use(tokenEndpointBodyErrors);
      expressApp.use(countRateLimitRejections(options.rateLimitMetrics));
    },
  });
  // Only in proxy mode may a peer speak for the client (X-Forwarded-Proto, X-Forwarded-For).
  app.set('trust proxy', options.tlsMode === 'proxy' ? options.trustedProxies : false);
  return app;
}

/** Whether the route matched for this request (matchPublicRoute ran before the body is read) is marked largeBody. */
function routeTakesLargeBody(req: Request): boolean {
  return req.res !== undefined && contextOf(req.res).route?.largeBody === true;
}

function closeWhenStopping(isStopping: () => boolean): RequestHandler {
  return (_req, res, next) => {
    if (isStopping()) res.setHeader('Connection', 'close');
    next();
  };
}
