import { accessTokenExample, accessTokenSchema, oauthErrorField, tokenRequestSchema } from './auth';
import { errorExample } from './envelopes';
import { anyRoute, codes, example, operationFamily } from './operation-parts';

/** The token endpoint (POST /partner/auth/token): the one operation a partner calls with its client credentials instead of a token. */
export const authOperations = operationFamily([
  {
    operationId: 'getAccessToken',
    method: 'POST',
    pathTemplate: '/partner/auth/token',
    tag: 'Authentication',
    summary: 'Get an access token',
    description:
      'OAuth 2.0 client credentials. Send your client ID and secret with HTTP Basic (client_secret_basic), a form body (client_secret_post) or a JSON body. The answer is the bare token object (no envelope), with Cache-Control: no-store. Refusals add the OAuth 2.0 `error` field and every 401 carries `WWW-Authenticate: Basic realm="partner-wallet-api"`. Each source address may call it 30 times a minute; after 10 wrong secrets for one client ID within 15 minutes that client ID is locked for the rest of the 15 minutes (429 PKC_7001 with Retry-After).',
    authentication: 'client-credentials',
    permission: null,
    sandboxOnly: false,
    request: {
      body: {
        schema: tokenRequestSchema,
        required: false,
        mediaTypes: ['application/x-www-form-urlencoded', 'application/json'],
        description: 'Client credentials in the body (leave it out with HTTP Basic).',
      },
    },
    success: { status: 200, description: 'A token, valid 3600 seconds.', schema: accessTokenSchema, enveloped: false, examples: { token: example('A token', accessTokenExample) } },
    errorCodes: codes(anyRoute, ['PKC_1001', 'PKC_1002', 'PKC_1006', 'PKC_1007', 'PKC_1009', 'PKC_7001']),
    errorFields: { error: oauthErrorField },
    errorExamples: {
      PKC_1001: { ...errorExample('PKC_1001', { error: 'invalid_request' }), message: 'client_id is required' },
      PKC_1002: errorExample('PKC_1002', { error: 'invalid_client' }),
      PKC_1006: errorExample('PKC_1006', { error: 'unauthorized_client' }),
      PKC_1007: errorExample('PKC_1007', { error: 'unauthorized_client' }),
      PKC_1009: errorExample('PKC_1009', { error: 'unauthorized_client' }),
      PKC_7001: { ...errorExample('PKC_7001', { error: 'temporarily_unavailable' }), message: 'Too many token requests from this address; wait and retry' },
      PKC_7003: errorExample('PKC_7003', { error: 'temporarily_unavailable' }),
    },
  },
]);
