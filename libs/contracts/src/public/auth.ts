import { z } from 'zod';

/** The RFC 6749 §5.2 `error` the token endpoint's refusals carry beside the PKC code (decision 0038). */
export const oauthErrorCodes = ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'unauthorized_client', 'temporarily_unavailable'] as const;

export const oauthErrorField = z.enum(oauthErrorCodes).meta({
  description: 'The OAuth 2.0 error (RFC 6749 §5.2), for OAuth libraries; act on `code`.',
  example: 'invalid_client',
});

/**
 * The token request's parameters, as a JSON body or a form body (client_secret_post). With HTTP
 * Basic (client_secret_basic) the body may be left out. Credentials that are missing or malformed
 * are 401 PKC_1001, not a schema failure, so the fields are described rather than required here.
 */
export const tokenRequestSchema = z
  .object({
    grant_type: z.literal('client_credentials').optional().meta({ description: 'When sent, must be client_credentials (anything else is 401 PKC_1001 unsupported_grant_type).' }),
    client_id: z.uuid().optional().meta({ description: 'Your client ID (a UUID). Required unless sent with HTTP Basic.', example: '3f0c2a5e-8b1d-4c7a-9e6f-2d4b8a1c5e90' }),
    client_secret: z.string().min(1).max(256).optional().meta({ description: 'Your client secret. Required unless sent with HTTP Basic.', example: 'pwsk_sandbox_4vQ9yR2mT7kL1pX8' }),
    scope: z.string().optional().meta({ description: 'Ignored: a token carries your account’s permissions.' }),
  })
  .meta({
    id: 'TokenRequest',
    description:
      'Client credentials, one way per request: HTTP Basic (client_secret_basic, body optional), a form body (client_secret_post) or a JSON body. Basic and body credentials that differ are refused (401 PKC_1001 invalid_request).',
  });

/** The token answer: the bare object, without the envelope (the spec's one exception). */
export const accessTokenSchema = z
  .strictObject({
    access_token: z.string().min(1).meta({ description: 'The bearer token, an ES256-signed JWT. Treat it as opaque.', example: 'eyJhbGciOiJFUzI1NiIsImtpZCI6InNhbmRib3gtMSJ9.eyJzdWIiOiIzZjBjIn0.c2lnbmF0dXJl' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().positive().meta({ description: 'Seconds the token lives: 3600.', example: 3600 }),
  })
  .meta({ id: 'AccessToken', description: 'The access token. Not wrapped in the success envelope.' });
export type PublicAccessToken = z.infer<typeof accessTokenSchema>;

export const accessTokenExample: PublicAccessToken = {
  access_token: 'eyJhbGciOiJFUzI1NiIsImtpZCI6InNhbmRib3gtMSJ9.eyJzdWIiOiIzZjBjIn0.c2lnbmF0dXJl',
  token_type: 'Bearer',
  expires_in: 3600,
};
