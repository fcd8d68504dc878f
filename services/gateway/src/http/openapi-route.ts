import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { PkcError } from '@pwa/errors';
import { createApp, type HttpMetrics } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import { unlessUnavailable } from '../domain/dependency-failure';
import { InsuredWindowLimiter, rateLimitHeaders, type RedisFallback } from '@pwa/redis';
import { sourceAddressOf } from './admission';
import { contractDocuments, openApiDocumentRoute, type ContractDocument } from './contract-documents';
import { requireForwardedHttps, strictTransportSecurity } from './https-only';
import { logEachRequest } from './request-log';

/** The documents change only with a deploy; a client may keep them five minutes and revalidate with the ETag. */
const cacheControl = 'public, max-age=300';

export interface ContractDocumentsOptions {
  logger: Logger;
  metrics: HttpMetrics;
  tlsMode: 'terminate' | 'proxy';
  trustedProxies: string;
  hstsMaxAgeSeconds: number;
  onPlainHttpRejected: () => void;
  isStopping: () => boolean;
  /** Requests per minute per source address (the token endpoint's figure), counted in its own window shared by the documents. */
  sourceLimitPerMinute: number;
  redis: Redis;
  redisFallback: RedisFallback;
  redisKeyPrefix: string;
}

/**
 * The gateway's public listener: GET (and HEAD) of the contract documents (contract-documents.ts:
 * /openapi.json, /docs and its script, /postman.json) go to a small app of their own, everything
 * else to the partner app unchanged. The documents' app runs the partner app's order: request id
 * and metrics (createApp), the request log, HTTPS (proxy mode), HSTS, then a per-address budget
 * like the token endpoint's, then the target rules, then the answer.
 */
export function withContractDocuments(publicApp: Express, options: ContractDocumentsOptions, documents: readonly ContractDocument[] = contractDocuments()): RequestListener {
  const routes = new Set(documents.map((document) => document.route));
  const documentApp = createContractDocumentsApp(options, documents);
  return (req: IncomingMessage, res: ServerResponse) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && routes.has((req.url ?? '').split('?')[0] ?? '')) documentApp(req, res);
    else publicApp(req, res);
  };
}

export function createContractDocumentsApp(options: ContractDocumentsOptions, documents: readonly ContractDocument[] = contractDocuments()): Express {
  const limiter = new InsuredWindowLimiter(options.redis, {
    keyPrefix: `${options.redisKeyPrefix}gateway:rate:openapi-source`,
    windowSeconds: 60,
    fallback: options.redisFallback,
  });
  const before: RequestHandler[] = [logEachRequest(options.logger), closeWhenStopping(options.isStopping), labelRoute(documents)];
  if (options.tlsMode === 'proxy') before.push(requireForwardedHttps(options.onPlainHttpRejected));
  before.push(strictTransportSecurity(options.hstsMaxAgeSeconds), limitBySource(limiter, options.sourceLimitPerMinute));
  const { app } = createApp({
    serviceName: 'gateway',
    logger: options.logger,
    metrics: options.metrics,
    mountOperationalRoutes: false,
    before,
    routes: (expressApp) => {
      for (const document of documents) {
        expressApp.get(document.route, (req, res) => {
          res.setHeader('Cache-Control', cacheControl);
          res.setHeader('ETag', document.etag);
          res.setHeader('X-Content-Type-Options', 'nosniff');
          for (const [name, value] of Object.entries(document.headers)) res.setHeader(name, value);
          if (req.header('if-none-match') === document.etag) {
            res.status(304).end();
            return;
          }
          res.status(200).type(document.contentType).send(document.body);
        });
      }
    },
  });
  app.set('trust proxy', options.tlsMode === 'proxy' ? options.trustedProxies : false);
  return app;
}

/** The metrics and the request log name the route by its path (each document has one, without parameters). */
function labelRoute(documents: readonly ContractDocument[]): RequestHandler {
  const routes = new Set(documents.map((document) => document.route));
  return (req, res, next) => {
    const pathName = req.path;
    res.locals.routeTemplate = routes.has(pathName) ? pathName : openApiDocumentRoute;
    next();
  };
}

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
