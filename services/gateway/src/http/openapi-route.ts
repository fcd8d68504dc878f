import { createHash } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { openApiDocumentPath, openApiDocumentText } from '@pwa/contracts';
import { PkcError } from '@pwa/errors';
import { createApp, type HttpMetrics } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import { unlessUnavailable } from '../domain/dependency-failure';
import { rateLimitHeaders } from '../domain/rate-limit';
import { publicPathPrefix } from '../domain/routes';
import { InsuredWindowLimiter } from '../redis/insured-window-limiter';
import type { RedisFallback } from '../redis/redis-fallback';
import { sourceAddressOf } from './admission';
import { requireForwardedHttps, strictTransportSecurity } from './https-only';
import { logEachRequest } from './request-log';

/** GET /api/v1/openapi.json: the contract, without a token. */
export const openApiDocumentRoute = `${publicPathPrefix}${openApiDocumentPath}`;

/** The document changes only with a deploy; a client may keep it five minutes and revalidate with its ETag. */
const cacheControl = 'public, max-age=300';

export interface OpenApiRouteOptions {
  logger: Logger;
  metrics: HttpMetrics;
  tlsMode: 'terminate' | 'proxy';
  trustedProxies: string;
  hstsMaxAgeSeconds: number;
  onPlainHttpRejected: () => void;
  isStopping: () => boolean;
  /** Requests per minute per source address (the token endpoint's figure), counted in its own window. */
  sourceLimitPerMinute: number;
  redis: Redis;
  redisFallback: RedisFallback;
  redisKeyPrefix: string;
}

/**
 * The gateway's public listener: GET (and HEAD) of the document go to a small app of their own,
 * everything else to the partner app unchanged. The document's app runs the partner app's order:
 * request id and metrics (createApp), the request log, HTTPS (proxy mode), HSTS, then a
 * per-address budget like the token endpoint's, then the target rules, then the answer.
 */
export function withOpenApiDocument(publicApp: Express, options: OpenApiRouteOptions): RequestListener {
  const documentApp = createOpenApiApp(options);
  return (req: IncomingMessage, res: ServerResponse) => {
    if (isDocumentRequest(req)) documentApp(req, res);
    else publicApp(req, res);
  };
}

function isDocumentRequest(req: IncomingMessage): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && (req.url ?? '').split('?')[0] === openApiDocumentRoute;
}

export function createOpenApiApp(options: OpenApiRouteOptions): Express {
  const text = openApiDocumentText();
  const etag = `"${createHash('sha256').update(text).digest('base64url')}"`;
  const limiter = new InsuredWindowLimiter(options.redis, {
    keyPrefix: `${options.redisKeyPrefix}gateway:rate:openapi-source`,
    windowSeconds: 60,
    fallback: options.redisFallback,
  });
  const before: RequestHandler[] = [logEachRequest(options.logger), closeWhenStopping(options.isStopping), labelRoute];
  if (options.tlsMode === 'proxy') before.push(requireForwardedHttps(options.onPlainHttpRejected));
  before.push(strictTransportSecurity(options.hstsMaxAgeSeconds), limitBySource(limiter, options.sourceLimitPerMinute));
  const { app } = createApp({
    serviceName: 'gateway',
    logger: options.logger,
    metrics: options.metrics,
    mountOperationalRoutes: false,
    before,
    routes: (expressApp) => {
      expressApp.get(openApiDocumentRoute, (req, res) => {
        res.setHeader('Cache-Control', cacheControl);
        res.setHeader('ETag', etag);
        if (req.header('if-none-match') === etag) {
          res.status(304).end();
          return;
        }
        res.status(200).type('application/json; charset=utf-8').send(text);
      });
    },
  });
  app.set('trust proxy', options.tlsMode === 'proxy' ? options.trustedProxies : false);
  return app;
}

/** The metrics and the request log name the route by its template. */
const labelRoute: RequestHandler = (_req, res, next) => {
  res.locals.routeTemplate = openApiDocumentRoute;
  next();
};

/** Each source address (an IPv6 /64 as one) gets its own per-minute window, apart from the token endpoint's. */
function limitBySource(limiter: InsuredWindowLimiter, limitPerMinute: number): RequestHandler {
  return async (req, res, next) => {
    const count = await unlessUnavailable(limiter.count(sourceAddressOf(req.ip), limitPerMinute));
    const headers = rateLimitHeaders(count);
    if (!count.allowed) throw new PkcError('PKC_7001', 'Too many requests for the document from this address; wait and retry', { headers });
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    next();
  };
}

function closeWhenStopping(isStopping: () => boolean): RequestHandler {
  return (_req, res, next) => {
    if (isStopping()) res.setHeader('Connection', 'close');
    next();
  };
}
