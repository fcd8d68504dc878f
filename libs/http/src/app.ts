import express, { type Express, type Request, type RequestHandler, type Router } from 'express';
import type { Logger } from '@pwa/logging';
import type { PkcCode } from '@pwa/errors';
import { requestIdMiddleware } from './request-id';
import { createHttpMetrics, type HttpMetrics } from './metrics';
import { operationalRoutes, type ReadinessCheck } from './health';
import { createErrorHandler, notFoundHandler } from './error-handler';
import { useLeanJsonResponses } from './json-response';

export interface CreateAppOptions {
  serviceName: string;
  logger: Logger;
  /** Largest accepted JSON body; the API's bodies are small. */
  jsonBodyLimit?: string;
  readinessChecks?: readonly ReadinessCheck[];
  malformedBodyCode?: PkcCode;
  malformedBodyCodeFor?: (req: Request) => PkcCode | undefined;
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

/** The express app every service uses: request id, metrics, JSON limit, routes, 404 and the error envelope. */
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
  app.use(express.json({ limit: options.jsonBodyLimit ?? '16kb', strict: true, type: ['application/json', 'application/*+json'], verify: keepRawBody }));
  options.routes(app);
  app.use(notFoundHandler);
  app.use(
    createErrorHandler({
      logger: options.logger,
      malformedBodyCode: options.malformedBodyCode ?? 'PKC_2008',
      malformedBodyCodeFor: options.malformedBodyCodeFor,
    }),
  );
  return { app, metrics };
}

const rawBodies = new WeakMap<object, Buffer>();

/** body-parser's verify hook: keeps the bytes of the body as received (after any content decoding). */
function keepRawBody(req: object, _res: unknown, body: Buffer): void {
  rawBodies.set(req, body);
}

/**
 * The JSON body exactly as the client wrote it. A proxy forwards these bytes, not a re-encoding of
 * the parsed value: `1.999999999999999999` must reach the service that parses amounts as written.
 */
export function rawJsonBodyOf(req: Request): Buffer | undefined {
  return rawBodies.get(req);
}

export type { Router };
