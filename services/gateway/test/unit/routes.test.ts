import { openApiDocumentPath, publicApi, publicOperations } from '@pwa/contracts';
import { operationUpstreams, servedByTheGateway } from '../../src/domain/operation-upstreams';
import { matchRoute, routeTable, routesForEnvironment } from '../../src/domain/routes';

describe('the route table and the operation contracts', () => {
  const keyOf = ({ method, pathTemplate }: { method: string; pathTemplate: string }): string => `${method} ${pathTemplate}`;
  /** What the gateway answers itself (http/contract-documents.ts): the contract in its three forms. */
  const contractDocumentKeys = [openApiDocumentPath, publicApi.apiReferencePagePath, publicApi.postmanCollectionPath].map((pathTemplate) => keyOf({ method: 'GET', pathTemplate }));

  test('when the routes and the operations are compared by method and path, then every operation is a route or a contract document the gateway serves itself, and every route is an operation', () => {
    expect([...routeTable.map(keyOf), ...contractDocumentKeys].sort()).toEqual(publicOperations.map(keyOf).sort());
    expect(new Set(routeTable.map(keyOf)).size).toBe(routeTable.length);
  });

  test('when the gateway serves operations itself, then they are exactly the contract documents, without a token', () => {
    const servedByItself = publicOperations.filter((operation) => operationUpstreams[operation.operationId] === servedByTheGateway);

    expect(servedByItself.map(keyOf)).toEqual(contractDocumentKeys);
    for (const operation of servedByItself) expect({ operationId: operation.operationId, authentication: operation.authentication }).toEqual({ operationId: operation.operationId, authentication: 'none' });
  });

  test('when every operation is looked up by its id, then it has an upstream or is served by the gateway, and nothing else is listed', () => {
    expect(Object.keys(operationUpstreams).sort()).toEqual(publicOperations.map((operation) => operation.operationId).sort());
  });

  test('when a route is derived, then its method, path, authentication, permission and sandbox marking are its operation’s', () => {
    for (const route of routeTable) {
      const operation = publicOperations.find((candidate) => keyOf(candidate) === keyOf(route));
      expect({ route: keyOf(route), authentication: route.authentication, requiredPermission: route.requiredPermission, sandboxOnly: route.sandboxOnly === true }).toEqual({
        route: keyOf(route),
        authentication: operation?.authentication === 'bearer' ? 'bearer' : 'none',
        requiredPermission: operation?.permission,
        sandboxOnly: operation?.sandboxOnly,
      });
    }
  });

  test('when the answers are listed, then only the statement negotiates its media type (JSON or CSV)', () => {
    expect(routeTable.filter((route) => route.negotiatesMediaType === true).map(keyOf)).toEqual(['GET /partner/v1/statement']);
  });
});

describe('matchRoute', () => {
  test.each([
    ['POST', '/api/v1/partner/auth/token', '/partner/auth/token', 'auth'],
    ['GET', '/api/v1/partner/v1/account/+231770000001', '/partner/v1/account/:phone', 'wallet'],
    ['GET', '/api/v1/partner/v1/account/%2B231770000001', '/partner/v1/account/:phone', 'wallet'],
    ['GET', '/api/v1/partner/v1/balance', '/partner/v1/balance', 'wallet'],
    ['POST', '/api/v1/partner/v1/collection/quote', '/partner/v1/collection/quote', 'quotes'],
    ['POST', '/api/v1/partner/v1/collection/request', '/partner/v1/collection/request', 'collections'],
    ['GET', '/api/v1/partner/v1/collection/PKC-123-ABC', '/partner/v1/collection/:referenceId', 'collections'],
    ['POST', '/api/v1/partner/v1/disbursement/quote', '/partner/v1/disbursement/quote', 'quotes'],
    ['POST', '/api/v1/partner/v1/disbursement/transfer', '/partner/v1/disbursement/transfer', 'disbursements'],
    ['GET', '/api/v1/partner/v1/disbursement/PKD-123-ABC', '/partner/v1/disbursement/:referenceId', 'disbursements'],
    ['POST', '/api/v1/partner/v1/disbursement/bulk/quote', '/partner/v1/disbursement/bulk/quote', 'disbursements'],
    ['POST', '/api/v1/partner/v1/disbursement/bulk/transfer', '/partner/v1/disbursement/bulk/transfer', 'disbursements'],
    ['GET', '/api/v1/partner/v1/disbursement/bulk/PKB-1718000000000-2A9C4E6F', '/partner/v1/disbursement/bulk/:bulkId', 'disbursements'],
    ['GET', '/api/v1/partner/v1/webhooks/deliveries', '/partner/v1/webhooks/deliveries', 'webhooks'],
    ['POST', '/api/v1/partner/v1/webhooks/deliveries/0b5c2f7e-8a51-4c0e-9d43-3f3f0c1d2e4a/redeliver', '/partner/v1/webhooks/deliveries/:deliveryId/redeliver', 'webhooks'],
    ['POST', '/api/v1/partner/v1/webhooks/redeliver', '/partner/v1/webhooks/redeliver', 'webhooks'],
    ['GET', '/api/v1/partner/v1/collections', '/partner/v1/collections', 'collections'],
    ['GET', '/api/v1/partner/v1/disbursements', '/partner/v1/disbursements', 'disbursements'],
    ['GET', '/api/v1/partner/v1/statement', '/partner/v1/statement', 'wallet'],
    ['GET', '/api/v1/partner/v1/events', '/partner/v1/events', 'webhooks'],
    ['GET', '/api/v1/partner/v1/events/0b5c2f7e-8a51-4c0e-9d43-3f3f0c1d2e4a', '/partner/v1/events/:eventId', 'webhooks'],
    ['POST', '/api/v1/partner/v1/collection/PKC-123-ABC/cancel', '/partner/v1/collection/:referenceId/cancel', 'collections'],
    ['POST', '/api/v1/partner/v1/collection/PKC-123-ABC/refund', '/partner/v1/collection/:referenceId/refund', 'collections'],
    ['GET', '/api/v1/partner/v1/refund/PKR-123-ABC', '/partner/v1/refund/:referenceId', 'collections'],
    ['GET', '/api/v1/partner/v1/refunds', '/partner/v1/refunds', 'collections'],
    ['POST', '/api/v1/partner/v1/sandbox/collection/PKC-123-ABC/approve', '/partner/v1/sandbox/collection/:referenceId/approve', 'collections'],
    ['POST', '/api/v1/partner/v1/sandbox/collection/PKC-123-ABC/decline', '/partner/v1/sandbox/collection/:referenceId/decline', 'collections'],
    ['POST', '/api/v1/partner/v1/sandbox/collection/PKC-123-ABC/expire', '/partner/v1/sandbox/collection/:referenceId/expire', 'collections'],
  ])('when %s %s arrives, then it matches %s on %s', (method, path, template, upstream) => {
    const match = matchRoute(routeTable, method, path);

    expect(match).toMatchObject({ kind: 'matched', route: { pathTemplate: template, upstream }, upstreamPath: path.slice('/api/v1'.length) });
  });

  test('when a literal and a parameter both fit, then the route of the request method wins', () => {
    expect(matchRoute(routeTable, 'GET', '/api/v1/partner/v1/collection/quote')).toMatchObject({
      kind: 'matched',
      route: { pathTemplate: '/partner/v1/collection/:referenceId' },
    });
    expect(matchRoute(routeTable, 'POST', '/api/v1/partner/v1/collection/quote')).toMatchObject({
      kind: 'matched',
      route: { pathTemplate: '/partner/v1/collection/quote' },
    });
  });

  test('when a listed path is called with another method, then the allowed methods are reported', () => {
    expect(matchRoute(routeTable, 'DELETE', '/api/v1/partner/v1/balance')).toEqual({ kind: 'method_not_allowed', allowedMethods: ['GET'] });
    expect(matchRoute(routeTable, 'GET', '/api/v1/partner/auth/token')).toEqual({ kind: 'method_not_allowed', allowedMethods: ['POST'] });
  });

  test.each([
    ['/partner/v1/balance'],
    ['/api/v1'],
    ['/api/v1/'],
    ['/api/v2/partner/v1/balance'],
    ['/api/v1/partner/v1/balance/'],
    ['/api/v1/partner/v1/account/'],
    ['/api/v1/partner/v1/account/..'],
    ['/api/v1/partner/v1/account/.'],
    ['/api/v1/partner/v1/account/a/b'],
    ['/api/v1/internal/jwks'],
    ['/api/v1/partner/v1/collection/a;b'],
    ['/api/v1/partner/v1/collection/../../internal/jwks'],
  ])('when %s is asked for, then nothing matches', (path) => {
    expect(matchRoute(routeTable, 'GET', path)).toEqual({ kind: 'not_found' });
  });

  test('when every route is listed, then only the token endpoint goes without a bearer token', () => {
    expect(routeTable.filter((route) => route.authentication === 'none').map((route) => route.pathTemplate)).toEqual(['/partner/auth/token']);
  });

  test('when the webhook and event routes are listed, then they go to webhooks for any active partner (no permission) in every environment', () => {
    const webhookRoutes = routeTable.filter((route) => route.upstream === 'webhooks');

    expect(webhookRoutes.map((route) => `${route.method} ${route.pathTemplate}`)).toEqual([
      'GET /partner/v1/webhooks/deliveries',
      'POST /partner/v1/webhooks/deliveries/:deliveryId/redeliver',
      'POST /partner/v1/webhooks/redeliver',
      'POST /partner/v1/webhooks/test',
      'GET /partner/v1/events',
      'GET /partner/v1/events/:eventId',
    ]);
    for (const route of webhookRoutes) {
      expect(route).toMatchObject({ authentication: 'bearer', requiredPermission: null, timeoutClass: 'standard' });
      expect(route.sandboxOnly).toBeUndefined();
    }
    expect(matchRoute(routeTable, 'GET', '/api/v1/partner/v1/webhooks/redeliver')).toEqual({ kind: 'method_not_allowed', allowedMethods: ['POST'] });
    expect(matchRoute(routeTable, 'POST', '/api/v1/partner/v1/webhooks/deliveries/../redeliver')).toEqual({ kind: 'not_found' });
  });

  test.each([
    ['GET', '/api/v1/partner/v1/account/%E0%A4%A', '/partner/v1/account/:phone', 'phone'],
    ['GET', '/api/v1/partner/v1/disbursement/%E0%A4%A', '/partner/v1/disbursement/:referenceId', 'referenceId'],
    ['GET', '/api/v1/partner/v1/collection/PKC-1-%00', '/partner/v1/collection/:referenceId', 'referenceId'],
    ['GET', '/api/v1/partner/v1/collection/PKC-1-%7F', '/partner/v1/collection/:referenceId', 'referenceId'],
    ['GET', '/api/v1/partner/v1/collection/PKC-1-%C2%85', '/partner/v1/collection/:referenceId', 'referenceId'],
    ['GET', '/api/v1/partner/v1/collection/%ED%A0%80', '/partner/v1/collection/:referenceId', 'referenceId'],
    ['POST', '/api/v1/partner/v1/sandbox/collection/%00/approve', '/partner/v1/sandbox/collection/:referenceId/approve', 'referenceId'],
    ['POST', '/api/v1/partner/v1/webhooks/deliveries/%FF/redeliver', '/partner/v1/webhooks/deliveries/:deliveryId/redeliver', 'deliveryId'],
  ])('when %s %s has a parameter that cannot be read, then it is invalid_parameter on %s naming %s, never forwarded', (method, path, template, parameterName) => {
    expect(matchRoute(routeTable, method, path)).toEqual({ kind: 'invalid_parameter', route: expect.objectContaining({ pathTemplate: template }), parameterName });
  });

  test('when a parameter decodes to printable UTF-8, then it matches as before', () => {
    expect(matchRoute(routeTable, 'GET', '/api/v1/partner/v1/collection/caf%C3%A9')).toMatchObject({ kind: 'matched', upstreamPath: '/partner/v1/collection/caf%C3%A9' });
    expect(matchRoute(routeTable, 'DELETE', '/api/v1/partner/v1/collection/%00')).toEqual({ kind: 'method_not_allowed', allowedMethods: ['GET'] });
  });

  test('when the table says which bodies a route takes, then only the token endpoint takes a form', () => {
    expect(routeTable.filter((route) => route.acceptsFormBody === true).map((route) => route.pathTemplate)).toEqual(['/partner/auth/token']);
  });

  test('when the routes that may post money synchronously are listed, then they alone have the transfer deadline', () => {
    expect(routeTable.filter((route) => route.timeoutClass === 'transfer').map((route) => route.pathTemplate)).toEqual(['/partner/v1/disbursement/transfer', '/partner/v1/collection/:referenceId/refund']);
  });

  test('when the bulk payout routes are listed, then they go to disbursements with the disbursement permission and the standard deadline, and only the bulk quote takes a large body', () => {
    const bulkRoutes = routeTable.filter((route) => route.pathTemplate.startsWith('/partner/v1/disbursement/bulk/'));

    expect(bulkRoutes.map((route) => `${route.method} ${route.pathTemplate}`)).toEqual([
      'POST /partner/v1/disbursement/bulk/quote',
      'POST /partner/v1/disbursement/bulk/transfer',
      'GET /partner/v1/disbursement/bulk/:bulkId',
      'GET /partner/v1/disbursement/bulk/:bulkId/items',
    ]);
    for (const route of bulkRoutes) {
      expect(route).toMatchObject({ upstream: 'disbursements', authentication: 'bearer', requiredPermission: 'disbursement', timeoutClass: 'standard' });
    }
    expect(routeTable.filter((route) => route.largeBody === true).map((route) => `${route.method} ${route.pathTemplate}`)).toEqual(['POST /partner/v1/disbursement/bulk/quote']);
  });

  test('when a bulk path is asked for, then the single disbursement status route never takes it, and a bulk id is one segment', () => {
    expect(matchRoute(routeTable, 'GET', '/api/v1/partner/v1/disbursement/bulk/quote')).toMatchObject({ kind: 'matched', route: { pathTemplate: '/partner/v1/disbursement/bulk/:bulkId' } });
    expect(matchRoute(routeTable, 'POST', '/api/v1/partner/v1/disbursement/bulk/PKB-1-AB')).toEqual({ kind: 'method_not_allowed', allowedMethods: ['GET'] });
    expect(matchRoute(routeTable, 'GET', '/api/v1/partner/v1/disbursement/bulk/PKB-1-AB/items')).toMatchObject({ kind: 'matched', route: { pathTemplate: '/partner/v1/disbursement/bulk/:bulkId/items' }, upstreamPath: '/partner/v1/disbursement/bulk/PKB-1-AB/items' });
    expect(matchRoute(routeTable, 'GET', '/api/v1/partner/v1/disbursement/bulk/PKB-1-AB/items/more')).toEqual({ kind: 'not_found' });
    expect(matchRoute(routeTable, 'GET', '/api/v1/partner/v1/disbursement/bulk/..')).toEqual({ kind: 'not_found' });
    expect(matchRoute(routeTable, 'GET', '/api/v1/partner/v1/disbursement/bulk/%00')).toEqual({
      kind: 'invalid_parameter',
      route: expect.objectContaining({ pathTemplate: '/partner/v1/disbursement/bulk/:bulkId' }),
      parameterName: 'bulkId',
    });
  });

  test('when a refund or cancel path is called with GET, then only POST is allowed (no read is hidden behind them)', () => {
    expect(matchRoute(routeTable, 'GET', '/api/v1/partner/v1/collection/PKC-1-AB/cancel')).toEqual({ kind: 'method_not_allowed', allowedMethods: ['POST'] });
    expect(matchRoute(routeTable, 'POST', '/api/v1/partner/v1/refunds')).toEqual({ kind: 'method_not_allowed', allowedMethods: ['GET'] });
  });

  describe('sandbox-only routes', () => {
    const sandboxPaths = ['approve', 'decline', 'expire'].map((action) => `/api/v1/partner/v1/sandbox/collection/PKC-1-AB/${action}`);

    test('when the table is listed, then exactly the three collection simulation routes are sandbox-only, on collections with the collection permission', () => {
      expect(routeTable.filter((route) => route.sandboxOnly === true)).toEqual(
        ['approve', 'decline', 'expire'].map((action) => ({
          method: 'POST',
          pathTemplate: `/partner/v1/sandbox/collection/:referenceId/${action}`,
          upstream: 'collections',
          authentication: 'bearer',
          requiredPermission: 'collection',
          timeoutClass: 'standard',
          sandboxOnly: true,
        })),
      );
    });

    test.each(sandboxPaths)('when %s is asked for in production, then nothing matches', (path) => {
      expect(matchRoute(routesForEnvironment(routeTable, 'production'), 'POST', path)).toEqual({ kind: 'not_found' });
    });

    test.each(sandboxPaths)('when %s is asked for in the sandbox, then it matches', (path) => {
      expect(matchRoute(routesForEnvironment(routeTable, 'sandbox'), 'POST', path)).toMatchObject({ kind: 'matched', route: { upstream: 'collections' } });
    });

    test('when production filters the table, then every other route stays', () => {
      expect(routesForEnvironment(routeTable, 'production')).toEqual(routeTable.filter((route) => route.sandboxOnly !== true));
      expect(routesForEnvironment(routeTable, 'production')).toHaveLength(routeTable.length - 3);
    });
  });
});
