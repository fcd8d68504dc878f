import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Pool } from '@pwa/db';
import { clientSecretMatches, decoySecretHash } from '../domain/client-secret';
import { refusalForStatus } from '../domain/partner';
import { tokenRefusal, type ClientCredentials } from '../domain/token-request';
import { signingAlgorithm } from '../domain/signing-key';
import { secondSecretHashOf } from '../store/client-secret-slot-store';
import { findPartnerByClientId } from '../store/partner-store';
import type { SigningKeyring } from './signing-keyring';

export interface TokenSettings {
  issuer: string;
  audience: string;
  ttlSeconds: number;
  environment: string;
}

export interface AccessTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/**
 * OAuth 2.0 client credentials: verify the secret (an unknown client costs the same argon2
 * verification as a wrong secret), then the partner's status, then sign a short-lived JWT.
 * A partner's status is revealed only to a caller who proved the secret. Refusals carry the
 * RFC 6749 `error` (invalid_client, unauthorized_client) beside the PKC code.
 */
export async function issueAccessToken(
  pool: Pool,
  keyring: SigningKeyring,
  settings: TokenSettings,
  credentials: ClientCredentials,
): Promise<AccessTokenResponse> {
  const partner = await findPartnerByClientId(pool, credentials.clientId);
  const storedHash = partner?.clientSecretHash ?? (await decoySecretHash());
  // During a two-secret rotation (client-secret-slots.ts) the second secret is accepted too.
  const secondHash = partner ? await secondSecretHashOf(pool, partner.clientId) : undefined;
  const matches = (await clientSecretMatches(storedHash, credentials.clientSecret)) || (secondHash !== undefined && (await clientSecretMatches(secondHash, credentials.clientSecret)));
  if (!partner || !matches) throw tokenRefusal('PKC_1002', 'invalid_client');
  const refusal = refusalForStatus(partner.status);
  // A client whose partner may not use the API now is not authorised for this grant (RFC 6749 §5.2).
  if (refusal) throw tokenRefusal(refusal, 'unauthorized_client');

  const key = await keyring.activeKey();
  const accessToken = jwt.sign(
    { cid: partner.clientId, perms: partner.permissions, env: settings.environment },
    key.privateKey,
    {
      algorithm: signingAlgorithm,
      keyid: key.kid,
      issuer: settings.issuer,
      audience: settings.audience,
      subject: partner.partnerId,
      jwtid: randomUUID(),
      expiresIn: settings.ttlSeconds,
    },
  );
  return { access_token: accessToken, token_type: 'Bearer', expires_in: settings.ttlSeconds };
}
