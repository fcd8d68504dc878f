import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { pkcErrorAnsweredOf } from './error-handler';

export interface HttpMetrics {
  registry: Registry;
  middleware: (req: Request, res: Response, next: NextFunction) => void;
}

/**
 * One registry per service with the process defaults, HTTP RED metrics and `pkc_errors_total`.
 * Routes are recorded by their template (`/partner/v1/collection/:referenceId`), never by the raw
 * path, so label cardinality stays bounded. An error envelope is counted by its PKC code when the
 * response finishes; the error handler marks the response with the code it answered.
 */
export function createHttpMetrics(serviceName: string, registry = new Registry()): HttpMetrics {
  registry.setDefaultLabels({ service: serviceName });
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests handled, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const pkcErrors = new Counter({
    name: 'pkc_errors_total',
    help: 'Error envelopes answered by this service, by PKC code and HTTP status code',
    labelNames: ['code', 'status_code'] as const,
    registers: [registry],
  });
  const middleware = (req: Request, res: Response, next: NextFunction): void => {
    const startedAt = process.hrtime.bigint();
    res.on('finish', () => {
      const statusCode = String(res.statusCode);
      const labels = { method: req.method, route: routeTemplateOf(req, res), status_code: statusCode };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - startedAt) / 1e9);
      const code = pkcErrorAnsweredOf(res);
      if (code !== undefined) pkcErrors.inc({ code, status_code: statusCode });
    });
    next();
  };
  return { registry, middleware };
}

function routeTemplateOf(req: Request, res: Response): string {
  if (typeof res.locals.routeTemplate === 'string') return res.locals.routeTemplate;
  const routePath = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof routePath === 'string') return `${req.baseUrl}${routePath}`;
  return 'unmatched';
}
