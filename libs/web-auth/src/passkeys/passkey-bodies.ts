import { z } from '@pwa/config';

/**
 * The bodies of the consoles' passkey calls: what @simplewebauthn/browser's startRegistration and
 * startAuthentication give, sent as they are (`{ response, name? }` and `{ response }`), bounded in
 * every string so nothing oversized reaches the verifier.
 */
const base64url = z.string().min(1).max(65_536).regex(/^[A-Za-z0-9_-]+$/);
const credentialId = z.string().min(1).max(1_366).regex(/^[A-Za-z0-9_-]+$/);
const clientExtensionResults = z.record(z.string(), z.unknown()).default({});
const authenticatorAttachment = z.enum(['platform', 'cross-platform']).optional();

export const passkeyRegistrationBody = z.object({
  response: z.object({
    id: credentialId,
    rawId: credentialId,
    type: z.literal('public-key'),
    response: z.looseObject({ clientDataJSON: base64url, attestationObject: base64url, transports: z.array(z.string().max(30)).max(8).optional() }),
    clientExtensionResults,
    authenticatorAttachment,
  }),
  name: z.string().trim().min(1).max(60).optional(),
});

export const passkeyAuthenticationBody = z.object({
  response: z.object({
    id: credentialId,
    rawId: credentialId,
    type: z.literal('public-key'),
    response: z.looseObject({ clientDataJSON: base64url, authenticatorData: base64url, signature: base64url, userHandle: base64url.optional() }),
    clientExtensionResults,
    authenticatorAttachment,
  }),
});
