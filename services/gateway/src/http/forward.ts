import express, { type Request, type RequestHandler, type Response } from 'express';
import { clientActor, partnerIdentityHeadersOf } from '@pwa/contracts';
import { rawJsonBodyOf, requestIdOf, type InternalRawResponse } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import { currentTraceparent } from '@pwa/telemetry';
import { admitTokenRequestForClient, recordTokenOutcome, tokenRequestNotNow, type TokenEndpointPorts } from '../domain/guard-token-endpoint';
import { clientIdOfTokenRequest } from '../domain/credential-stuffing';
import { unlessUpstreamFailed } from '../domain/dependency-failure';
import type { RouteDefinition, TimeoutClass } from '../domain/routes';
import type { UpstreamClients } from '../upstream/upstream-clients';
import { contextOf } from './request-context';
import { noteIfUnavailable } from './request-log';
import { noteRateLimitRejection } from './rate-limit-metrics';
import { sourceAddressOf } from './admission';

export interface ForwardingOptions {
  upstreams: UpstreamClients;
  timeoutsMs: Readonly<Record<TimeoutClass, number>>;
  tokenEndpoint: { ports: TokenEndpointPorts; clientFailuresMax: number };
  logger: Logger;
}

const formBodyParser = express.urlencoded({ extended: false, limit: '16kb' });

/**
 * Answers are read whole before they are relayed, and anything larger is a fault, not a payload
 * (the upstream's answer becomes 503 PKC_7003). The largest a partner gets is a 1,000-item bulk
 * quote echoing every externalId (well under 2 MB with the longest texts the contract allows).
 */
const relayedAnswerMaxBytes = 2 * 1024 * 1024;

/**
 * The last step of an admitted request: send it to its upstream through that upstream's breaker
 * and relay the answer unchanged, as bytes (never parsed and written again); an upstream that gave
 * no answer is 503 PKC_7003 at once. The token endpoint also accepts a form-encoded body (RFC 6749),
 * is guarded against credential stuffing around the call, and its 503 carries its RFC 6749 error.
 */
export function forwardAdmittedRequests(options: ForwardingOptions): RequestHandler[] {
  const parseFormOnTokenEndpoint: RequestHandler = (req, res, next) => {
    if (contextOf(res).route?.authentication === 'none') formBodyParser(req, res, next);
    else next();
  };
  const forward: RequestHandler = async (req, res, next) => {
    const context = contextOf(res);
    const { route, upstreamPath } = context;
    if (!route || upstreamPath === undefined) {
      next();
      return;
    }
    const isTokenEndpoint = route.authentication === 'none';
    const clientId = isTokenEndpoint ? clientIdOfTokenRequest(req.body, req.header('authorization')) : undefined;
    const sourceAddress = sourceAddressOf(req.ip);
    try {
      if (isTokenEndpoint) {
        await admitTokenRequestForClient(clientId, sourceAddress, options.tokenEndpoint.clientFailuresMax, options.tokenEndpoint.ports).catch((error: unknown) => {
          noteRateLimitRejection(res, error, 'token_client_lockout');
          throw error;
        });
      }
      const body = bodyOf(req);
      const headers = upstreamHeadersOf(req, res);
      if (body) headers['content-type'] = body.contentType;
      const relayed = options.upstreams[route.upstream].relay({
        method: req.method,
        path: upstreamPath,
        headers,
        body: body?.content,
        timeoutMs: options.timeoutsMs[route.timeoutClass],
        responseBodyMaxBytes: relayedAnswerMaxBytes,
      });
      const upstreamResponse = await unlessUpstreamFailed(relayed, isTokenEndpoint ? tokenRequestNotNow : undefined);
      if (isTokenEndpoint) {
        await recordTokenOutcome(clientId, sourceAddress, { status: upstreamResponse.status, body: jsonOf(upstreamResponse) }, options.tokenEndpoint.ports).catch(
          (error: unknown) => options.logger.warn({ err: error }, 'could not record a token request outcome'),
        );
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('Pragma', 'no-cache');
      }
      relay(upstreamResponse, res);
    } catch (error) {
      noteIfUnavailable(res, error);
      throw error;
    }
  };
  return [parseFormOnTokenEndpoint, forward];
}

/**
 * Headers are built, not copied: the upstream sees the gateway's word on who is calling and
 * nothing the client could forge (any x-partner-* it sent is dropped here by construction). The
 * one client credential passed on is the token endpoint's `Authorization` (client_secret_basic):
 * auth is the one to check it. A bearer route's token stays at the gateway.
 */
/** Longer Accept headers are not a media-type choice any route offers; they are cut, never relayed whole. */
const acceptLengthMax = 256;

/** JSON, except where the route's answer comes in more than one media type: there the client's Accept chooses. */
function acceptFor(req: Request, route: RouteDefinition | undefined): string {
  const accept = req.header('accept');
  if (route?.negotiatesMediaType !== true || accept === undefined || accept.trim() === '') return 'application/json';
  return accept.slice(0, acceptLengthMax);
}

function upstreamHeadersOf(req: Request, res: Response): Record<string, string> {
  const { route, admission } = contextOf(res);
  const headers: Record<string, string> = { accept: acceptFor(req, route), 'x-request-id': requestIdOf(res) };
  const authorization = req.header('authorization');
  if (route?.authentication === 'none' && authorization !== undefined) headers.authorization = authorization;
  // The actor is the API client the token was issued to: the owners record it with each change (decision 0058, addendum).
  if (admission) Object.assign(headers, partnerIdentityHeadersOf(admission.partner, { rateLimitPerMinute: admission.rateLimitPerMinute, actor: clientActor(admission.partner.clientId) }));
  const traceparent = currentTraceparent();
  if (traceparent !== undefined) headers.traceparent = traceparent;
  const userAgent = req.header('user-agent');
  if (userAgent !== undefined) headers['user-agent'] = userAgent.slice(0, 256);
  return headers;
}

/**
 * The body to forward: a JSON body as the client wrote it (already parsed once here, so it is known
 * to be JSON; numbers keep their written form for the services that parse amounts), a form body
 * re-encoded; requests without a parsed body are sent without one.
 */
function bodyOf(req: Request): { content: Buffer; contentType: string } | undefined {
  if (req.method === 'GET' || req.body === undefined || req.body === null) return undefined;
  if (req.is('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(req.body as Record<string, string>).toString();
    return { content: Buffer.from(form), contentType: 'application/x-www-form-urlencoded' };
  }
  return { content: rawJsonBodyOf(req) ?? Buffer.from(JSON.stringify(req.body)), contentType: 'application/json' };
}

/** Connection-level headers and the ones the gateway owns are not relayed. */
const headersNotRelayed = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'date',
  'server',
  'x-powered-by',
  'x-request-id',
  'strict-transport-security',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
]);

function relay(upstream: InternalRawResponse, res: Response): void {
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value === undefined || headersNotRelayed.has(name)) continue;
    res.setHeader(name, value);
  }
  res.setHeader('Content-Length', upstream.body.length);
  res.status(upstream.status).end(upstream.body);
}

function jsonOf(response: InternalRawResponse): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    return undefined;
  }
}
