import type { PartnerPermission } from '@pwa/contracts';

/** The public prefix every partner path starts with; it is stripped before forwarding. */
export const publicPathPrefix = '/api/v1';

export const upstreamNames = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks'] as const;
export type UpstreamName = (typeof upstreamNames)[number];

export type HttpMethod = 'GET' | 'POST';

/** Which deadline applies: the transfer gets a longer one so the service's own 25 s budget expires first. */
export type TimeoutClass = 'standard' | 'transfer';

export interface RouteDefinition {
  method: HttpMethod;
  /** Path below the public prefix, with ":name" for one path segment. Also the metrics label. */
  pathTemplate: string;
  upstream: UpstreamName;
  /** The token endpoint is the only route a partner may call without a bearer token. */
  authentication: 'none' | 'bearer';
  requiredPermission: PartnerPermission | null;
  timeoutClass: TimeoutClass;
  /** Sandbox simulation: listed only when ENVIRONMENT=sandbox; production answers 404 PKC_6002 like any unlisted path. */
  sandboxOnly?: boolean;
  /** Besides JSON, the body may be a form (application/x-www-form-urlencoded): the token endpoint, as RFC 6749 §4.4 has it. */
  acceptsFormBody?: boolean;
  /** The answer comes in more than one media type (the statement: JSON or CSV), so the client's Accept is passed on; other routes always ask for JSON. */
  negotiatesMediaType?: boolean;
  /** The body may be up to largeBodyLimit instead of the usual 16 kb: the bulk quote (1,000 items with the longest texts is over 1 MB). */
  largeBody?: true;
}

/** The largest body a route with `largeBody` accepts (every other route: 16 kb). */
export const largeBodyLimit = '2mb';

/** The one route table of the public API. A path not listed here is never forwarded anywhere. */
export const routeTable: readonly RouteDefinition[] = [
  { method: 'POST', pathTemplate: '/partner/auth/token', upstream: 'auth', authentication: 'none', requiredPermission: null, timeoutClass: 'standard', acceptsFormBody: true },
  { method: 'GET', pathTemplate: '/partner/v1/account/:phone', upstream: 'wallet', authentication: 'bearer', requiredPermission: null, timeoutClass: 'standard' },
  { method: 'GET', pathTemplate: '/partner/v1/balance', upstream: 'wallet', authentication: 'bearer', requiredPermission: null, timeoutClass: 'standard' },
  { method: 'POST', pathTemplate: '/partner/v1/collection/quote', upstream: 'quotes', authentication: 'bearer', requiredPermission: 'collection', timeoutClass: 'standard' },
  { method: 'POST', pathTemplate: '/partner/v1/collection/request', upstream: 'collections', authentication: 'bearer', requiredPermission: 'collection', timeoutClass: 'standard' },
  { method: 'GET', pathTemplate: '/partner/v1/collection/:referenceId', upstream: 'collections', authentication: 'bearer', requiredPermission: 'collection', timeoutClass: 'standard' },
  { method: 'POST', pathTemplate: '/partner/v1/disbursement/quote', upstream: 'quotes', authentication: 'bearer', requiredPermission: 'disbursement', timeoutClass: 'standard' },
  { method: 'POST', pathTemplate: '/partner/v1/disbursement/transfer', upstream: 'disbursements', authentication: 'bearer', requiredPermission: 'disbursement', timeoutClass: 'transfer' },
  { method: 'GET', pathTemplate: '/partner/v1/disbursement/:referenceId', upstream: 'disbursements', authentication: 'bearer', requiredPermission: 'disbursement', timeoutClass: 'standard' },
  // Issue 20: bulk payouts. The quote's body (up to 1,000 items) is the one large body of the API.
  { method: 'POST', pathTemplate: '/partner/v1/disbursement/bulk/quote', upstream: 'disbursements', authentication: 'bearer', requiredPermission: 'disbursement', timeoutClass: 'standard', largeBody: true },
  { method: 'POST', pathTemplate: '/partner/v1/disbursement/bulk/transfer', upstream: 'disbursements', authentication: 'bearer', requiredPermission: 'disbursement', timeoutClass: 'standard' },
  { method: 'GET', pathTemplate: '/partner/v1/disbursement/bulk/:bulkId', upstream: 'disbursements', authentication: 'bearer', requiredPermission: 'disbursement', timeoutClass: 'standard' },
  // Additions for reconciliation (issue 18): the partner's own lists of collections and disbursements.
  { method: 'GET', pathTemplate: '/partner/v1/collections', upstream: 'collections', authentication: 'bearer', requiredPermission: 'collection', timeoutClass: 'standard' },
  { method: 'GET', pathTemplate: '/partner/v1/disbursements', upstream: 'disbursements', authentication: 'bearer', requiredPermission: 'disbursement', timeoutClass: 'standard' },
  // Additions to the spec (issue 5): the partner's webhook delivery log and redelivery; any active partner.
  { method: 'GET', pathTemplate: '/partner/v1/webhooks/deliveries', upstream: 'webhooks', authentication: 'bearer', requiredPermission: null, timeoutClass: 'standard' },
  { method: 'POST', pathTemplate: '/partner/v1/webhooks/deliveries/:deliveryId/redeliver', upstream: 'webhooks', authentication: 'bearer', requiredPermission: null, timeoutClass: 'standard' },
  { method: 'POST', pathTemplate: '/partner/v1/webhooks/redeliver', upstream: 'webhooks', authentication: 'bearer', requiredPermission: null, timeoutClass: 'standard' },
  // Additions for reconciliation (issue 18): the statement from the ledger and the events list; any active partner.
  { method: 'GET', pathTemplate: '/partner/v1/statement', upstream: 'wallet', authentication: 'bearer', requiredPermission: null, timeoutClass: 'standard', negotiatesMediaType: true },
  { method: 'GET', pathTemplate: '/partner/v1/events', upstream: 'webhooks', authentication: 'bearer', requiredPermission: null, timeoutClass: 'standard' },
  { method: 'GET', pathTemplate: '/partner/v1/events/:eventId', upstream: 'webhooks', authentication: 'bearer', requiredPermission: null, timeoutClass: 'standard' },
  // Issue 19: the partner cancels a pending collection and refunds a completed one (the refund may post, hence the transfer deadline).
  { method: 'POST', pathTemplate: '/partner/v1/collection/:referenceId/cancel', upstream: 'collections', authentication: 'bearer', requiredPermission: 'collection', timeoutClass: 'standard' },
  { method: 'POST', pathTemplate: '/partner/v1/collection/:referenceId/refund', upstream: 'collections', authentication: 'bearer', requiredPermission: 'collection', timeoutClass: 'transfer' },
  { method: 'GET', pathTemplate: '/partner/v1/refund/:referenceId', upstream: 'collections', authentication: 'bearer', requiredPermission: 'collection', timeoutClass: 'standard' },
  { method: 'GET', pathTemplate: '/partner/v1/refunds', upstream: 'collections', authentication: 'bearer', requiredPermission: 'collection', timeoutClass: 'standard' },
  { method: 'POST', pathTemplate: '/partner/v1/sandbox/collection/:referenceId/approve', upstream: 'collections', authentication: 'bearer', requiredPermission: 'collection', timeoutClass: 'standard', sandboxOnly: true },
  { method: 'POST', pathTemplate: '/partner/v1/sandbox/collection/:referenceId/decline', upstream: 'collections', authentication: 'bearer', requiredPermission: 'collection', timeoutClass: 'standard', sandboxOnly: true },
  { method: 'POST', pathTemplate: '/partner/v1/sandbox/collection/:referenceId/expire', upstream: 'collections', authentication: 'bearer', requiredPermission: 'collection', timeoutClass: 'standard', sandboxOnly: true },
];

export type Environment = 'sandbox' | 'production';

/**
 * The routes an environment serves: production drops every sandbox-only route, so a simulation
 * path there is an unknown path (404 PKC_6002) and is never forwarded, whoever asks.
 */
export function routesForEnvironment(table: readonly RouteDefinition[], environment: Environment): readonly RouteDefinition[] {
  return environment === 'sandbox' ? table : table.filter((route) => route.sandboxOnly !== true);
}

export type RouteMatch =
  | { kind: 'matched'; route: RouteDefinition; upstreamPath: string }
  | { kind: 'invalid_parameter'; route: RouteDefinition; parameterName: string }
  | { kind: 'method_not_allowed'; allowedMethods: HttpMethod[] }
  | { kind: 'not_found' };

/**
 * A path parameter is one segment of unreserved characters (percent-encoding and "+" allowed, for
 * phone numbers). Dot segments are refused so that no upstream can be steered to another path.
 */
const safePathSegment = /^[A-Za-z0-9_~+%-][A-Za-z0-9._~+%-]*$/;

/**
 * Finds the route for a request. `rawPath` is the path as received (still percent-encoded, without
 * the query string). Among routes of the request's method, literal segments win over parameters, so
 * POST /collection/quote is never read as a referenceId. The upstream path is the public path with
 * the prefix stripped. A path that fits a route but whose parameter does not decode as UTF-8, or
 * decodes to a control character (`%E0%A4%A`, `%00`), is `invalid_parameter`: no upstream could
 * read it, so it is never forwarded.
 */
export function matchRoute(table: readonly RouteDefinition[], method: string, rawPath: string): RouteMatch {
  if (!rawPath.startsWith(`${publicPathPrefix}/`)) return { kind: 'not_found' };
  const upstreamPath = rawPath.slice(publicPathPrefix.length);
  const segments = upstreamPath.split('/').slice(1);
  const candidates = table
    .map((route) => ({ route, score: scorePath(route.pathTemplate, segments) }))
    .filter((candidate): candidate is { route: RouteDefinition; score: number } => candidate.score !== undefined);
  if (candidates.length === 0) return { kind: 'not_found' };
  const sameMethod = candidates.filter((candidate) => candidate.route.method === method);
  const best = sameMethod.sort((left, right) => right.score - left.score)[0];
  if (best) {
    const parameterName = unreadableParameterOf(best.route.pathTemplate, segments);
    if (parameterName !== undefined) return { kind: 'invalid_parameter', route: best.route, parameterName };
    return { kind: 'matched', route: best.route, upstreamPath };
  }
  const allowedMethods = [...new Set(candidates.map((candidate) => candidate.route.method))];
  return { kind: 'method_not_allowed', allowedMethods };
}

/** Control characters (C0 with NUL, DEL, C1): a path parameter holding one names nothing any service stores. */
const controlCharacter = /\p{Cc}/u;

/** The name of the first parameter that does not percent-decode to UTF-8 text free of control characters. */
function unreadableParameterOf(pathTemplate: string, segments: readonly string[]): string | undefined {
  for (const [index, templateSegment] of pathTemplate.split('/').slice(1).entries()) {
    if (!templateSegment.startsWith(':')) continue;
    const decoded = decodedSegment(segments[index] ?? '');
    if (decoded === undefined || controlCharacter.test(decoded)) return templateSegment.slice(1);
  }
  return undefined;
}

function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Undefined when the path does not fit the template; otherwise the number of literal segments. */
function scorePath(pathTemplate: string, segments: readonly string[]): number | undefined {
  const templateSegments = pathTemplate.split('/').slice(1);
  if (templateSegments.length !== segments.length) return undefined;
  let literalCount = 0;
  for (const [index, templateSegment] of templateSegments.entries()) {
    const segment = segments[index] ?? '';
    if (templateSegment.startsWith(':')) {
      if (!safePathSegment.test(segment)) return undefined;
    } else if (templateSegment === segment) {
      literalCount += 1;
    } else {
      return undefined;
    }
  }
  return literalCount;
}
