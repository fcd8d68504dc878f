import { publicOperations, type PartnerPermission, type PublicOperation } from '@pwa/contracts';
import { operationUpstreams, servedByTheGateway, type OperationUpstream } from './operation-upstreams';

/** The public prefix every partner path starts with; it is stripped before forwarding. */
export const publicPathPrefix = '/api/v1';

export const upstreamNames = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks'] as const;
export type UpstreamName = (typeof upstreamNames)[number];

export type HttpMethod = PublicOperation['method'];

/** Which deadline applies: the transfer gets a longer one so the service's own 25 s budget expires first. */
export type TimeoutClass = 'standard' | 'transfer';

/**
 * One forwarded operation, as the gateway's middleware reads it. Everything but `upstream` and
 * `timeoutClass` comes from the operation's contract (routeOf); those two are the gateway's own
 * (operation-upstreams.ts).
 */
export interface RouteDefinition {
  method: HttpMethod;
  /** Path below the public prefix, with ":name" for one path segment. Also the metrics label. */
  pathTemplate: string;
  upstream: UpstreamName;
  /** The token endpoint is the only route a partner may call without a bearer token (its client credentials are auth's to check). */
  authentication: 'none' | 'bearer';
  requiredPermission: PartnerPermission | null;
  timeoutClass: TimeoutClass;
  /** Sandbox simulation: listed only when ENVIRONMENT=sandbox; production answers 404 PKC_6002 like any unlisted path. */
  sandboxOnly?: true;
  /** Besides JSON, the body may be a form (application/x-www-form-urlencoded): the token endpoint, as RFC 6749 §4.4 has it. */
  acceptsFormBody?: true;
  /** The answer comes in more than one media type (the statement: JSON or CSV), so the client's Accept is passed on; other routes always ask for JSON. */
  negotiatesMediaType?: true;
  /** The body may be up to the contract's largeRequestBodyLimit instead of the usual 16 kb: the bulk quote. */
  largeBody?: true;
}

const formMediaType = 'application/x-www-form-urlencoded';

/**
 * The route of one operation: what the contract says of it, with where the gateway forwards it. A
 * flag the operation does not have is left out rather than false, as the table always wrote it.
 */
function routeOf(operation: PublicOperation, { upstream, timeoutClass }: OperationUpstream): RouteDefinition {
  const successMediaTypeCount = (operation.success.json === false ? 0 : 1) + Object.keys(operation.success.otherMediaTypes ?? {}).length;
  return {
    method: operation.method,
    pathTemplate: operation.pathTemplate,
    upstream,
    authentication: operation.authentication === 'bearer' ? 'bearer' : 'none',
    requiredPermission: operation.permission,
    timeoutClass,
    ...(operation.sandboxOnly ? { sandboxOnly: true } : {}),
    ...(operation.request?.body?.mediaTypes.includes(formMediaType) === true ? { acceptsFormBody: true } : {}),
    ...(successMediaTypeCount > 1 ? { negotiatesMediaType: true } : {}),
    ...(operation.request?.body?.large === true ? { largeBody: true } : {}),
  };
}

/**
 * The one route table of the public API: every operation of the contract the gateway forwards, in
 * the contract's order. A path not listed here is never forwarded anywhere; the contract documents
 * (GET /openapi.json, /docs, /postman.json) are answered by the gateway itself.
 */
export const routeTable: readonly RouteDefinition[] = publicOperations.flatMap((operation) => {
  const forwarding = operationUpstreams[operation.operationId];
  return forwarding === servedByTheGateway ? [] : [routeOf(operation, forwarding)];
});

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
