import express, { type Express, type Request, type RequestHandler, type Router } from 'express';
import type { Logger } from '@pwa/logging';
import type { PkcCode } from '@pwa/errors';
import { requestIdMiddleware } from './request-id';
import { createHttpMetrics, type HttpMetrics } from './metrics';
import { operationalRoutes, type ReadinessCheck } from './health';
import { createErrorHandler, notFoundHandler } from './error-handler';
import { useLeanJsonResponses } from './json-response';
import { checkBodyHeaders, checkBodyText, checkRequestTarget, parseBody, type LargeBodyLimit } from './body-rules';

export interface CreateAppOptions {
  serviceName: string;
  logger: Logger;
  /** Largest accepted body (JSON or form), after content decoding; the API's bodies are small. */
  jsonBodyLimit?: string;
  /**
   * A second, larger limit for the requests `appliesTo` picks before their body is read (the
   * gateway's bulk quote route, say); every other request keeps jsonBodyLimit and every other rule
   * is the same for both.
   */
  largeJsonBody?: LargeBodyLimit;
  readinessChecks?: readonly ReadinessCheck[];
  malformedBodyCode?: PkcCode;
  malformedBodyCodeFor?: (req: Request) => PkcCode | undefined;
  /** Errors that mean a needed dependency is away (answered 503 PKC_7003, not 500); see ErrorHandlerOptions. */
  isDependencyUnavailable?: (error: unknown) => boolean;
  metrics?: HttpMetrics;
  /** Middleware that runs before body parsing (the gateway's HTTPS check, say). */
  before?: RequestHandler[];
  /** Mounts the service's routes. */
  routes: (app: Express) => void;
  /** When false, /healthz, /readyz and /metrics are not mounted here (the gateway serves them on its admin port). */
  mountOperationalRoutes?: boolean;
}

export interface ServiceApp {
  app: Express;
  metrics: HttpMetrics;
}

/** The express app every service uses: request id, metrics, the target and body rules, routes, 404 and the error envelope. */
export function createApp(options: CreateAppOptions): ServiceApp {
  const app = express();
  const metrics = options.metrics ?? createHttpMetrics(options.serviceName);
  app.disable('x-powered-by');
  app.set('etag', false);
  useLeanJsonResponses(app);
  app.use(requestIdMiddleware);
  app.use(metrics.middleware);
  for (const middleware of options.before ?? []) app.use(middleware);
  if (options.mountOperationalRoutes !== false) {
    app.use(operationalRoutes(metrics.registry, options.readinessChecks ?? []));
  }
  // Target and body rules (body-rules.ts) before any route: nothing reaches a route that breaks them.
  app.use(checkRequestTarget, checkBodyHeaders, parseBody(options.jsonBodyLimit ?? '16kb', options.largeJsonBody), checkBodyText);
  options.routes(app);
  app.use(notFoundHandler);
  app.use(
    createErrorHandler({
      logger: options.logger,
      malformedBodyCode: options.malformedBodyCode ?? 'PKC_2008',
      malformedBodyCodeFor: options.malformedBodyCodeFor,
      isDependencyUnavailable: options.isDependencyUnavailable,
    }),
  );
  return { app, metrics };
}

export type { Router };
