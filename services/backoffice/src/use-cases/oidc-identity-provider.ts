import { Issuer, errors, type Client, type TokenSet } from 'openid-client';

/**
 * The company's identity provider as the back-office's OpenID Connect client (decision 0071): the
 * authorization code flow with PKCE (S256), state and nonce, a confidential client
 * (client_secret_basic). The discovery document is read on first use, not at start, and read again
 * after a failure: a provider that is down never stops the back-office from starting or from
 * serving local sign-in; only this kind of sign-in answers 503 until it is back.
 */
export interface OidcIdentityProvider {
  /** Where the browser is sent to sign in; throws OidcProviderUnavailable when discovery fails. */
  authorizationUrl(request: { state: string; nonce: string; codeChallenge: string }): Promise<string>;
  /**
   * The code exchanged and the ID token verified (signature, issuer, audience, expiry, nonce; the
   * state and the `iss` parameter of the answer). Throws OidcAnswerRefused with a reason safe to
   * log (never a code, token, nonce or verifier), or OidcProviderUnavailable.
   */
  finish(request: { callbackUrl: string; state: string; nonce: string; codeVerifier: string }): Promise<OidcIdentity>;
}

export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  /** RFC 8176 authentication method references, as the provider stated them ([] when it said none). */
  amr: string[];
  acr: string | undefined;
}

export class OidcProviderUnavailable extends Error {
  override readonly name = 'OidcProviderUnavailable';
}

export class OidcAnswerRefused extends Error {
  override readonly name = 'OidcAnswerRefused';
}

export interface OidcClientSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  /** `${BACKOFFICE_PUBLIC_URL}/api/v1/session/oidc/callback`, registered at the provider. */
  redirectUri: string;
}

export function createOidcIdentityProvider(settings: OidcClientSettings): OidcIdentityProvider {
  let client: Promise<Client> | undefined;
  const clientOf = (): Promise<Client> => {
    client ??= Issuer.discover(settings.issuerUrl).then(
      (issuer) => new issuer.Client({ client_id: settings.clientId, client_secret: settings.clientSecret, redirect_uris: [settings.redirectUri], response_types: ['code'] }),
      (error: unknown) => {
        client = undefined;
        throw new OidcProviderUnavailable(`The identity provider's discovery document could not be read (${safeProblem(error)})`);
      },
    );
    return client;
  };

  return {
    async authorizationUrl(request) {
      const ready = await clientOf();
      return ready.authorizationUrl({ scope: 'openid email', state: request.state, nonce: request.nonce, code_challenge: request.codeChallenge, code_challenge_method: 'S256' });
    },

    async finish(request) {
      const ready = await clientOf();
      const params = ready.callbackParams(request.callbackUrl);
      let tokens: TokenSet;
      try {
        tokens = await ready.callback(settings.redirectUri, params, { state: request.state, nonce: request.nonce, code_verifier: request.codeVerifier, response_type: 'code' });
      } catch (error) {
        throw refusalOf(error);
      }
      const claims = tokens.claims();
      let email = typeof claims.email === 'string' ? claims.email : undefined;
      let emailVerified = claims.email_verified === true;
      // Many providers put the e-mail in the userinfo answer only; its sub must equal the ID token's (checked by the client).
      if (email === undefined && tokens.access_token !== undefined) {
        try {
          const info = await ready.userinfo(tokens);
          email = typeof info.email === 'string' ? info.email : undefined;
          emailVerified = info.email_verified === true;
        } catch (error) {
          throw refusalOf(error);
        }
      }
      return {
        issuer: String(ready.issuer.metadata.issuer),
        subject: claims.sub,
        email,
        emailVerified,
        amr: Array.isArray(claims.amr) ? claims.amr.filter((method): method is string => typeof method === 'string') : [],
        acr: typeof claims.acr === 'string' ? claims.acr : undefined,
      };
    },
  };
}

function refusalOf(error: unknown): Error {
  if (error instanceof errors.OPError) return new OidcAnswerRefused(`the provider answered ${String(error.error ?? 'an error').slice(0, 60)}`);
  if (error instanceof errors.RPError) return new OidcAnswerRefused(`the provider's answer failed a check: ${safeProblem(error)}`);
  return new OidcProviderUnavailable(`the identity provider did not answer (${safeProblem(error)})`);
}

/**
 * The first clause of an error message ("nonce mismatch, expected …, got: …" becomes "nonce
 * mismatch"), with anything token-like cut out: openid-client's messages quote the values they
 * compared, and a nonce, state or code is never written down.
 */
function safeProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : 'no answer';
  return (message.split(',')[0] ?? '').replace(/[A-Za-z0-9_.~+/=-]{16,}/g, '…').slice(0, 120);
}
