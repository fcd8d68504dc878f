/** RFC 6750: "Bearer", one or more spaces, then a b64token (the characters a bearer token may contain). */
const bearerCredentials = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
const bearerScheme = /^Bearer(?: |$)/i;

/** The protection space named in every `WWW-Authenticate` challenge of the public API. */
export const authenticationRealm = 'partner-wallet-api';

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined when the header is missing
 * or has another form (PKC_1005). Whether the token itself is valid is a separate question (PKC_1004).
 */
export function bearerTokenOf(authorizationHeader: string | undefined): string | undefined {
  if (authorizationHeader === undefined) return undefined;
  return bearerCredentials.exec(authorizationHeader.trim())?.[1];
}

/** Why a bearer route refuses a request: RFC 6750 §3.1's cases, as the gateway's codes tell them apart. */
export type BearerRefusalCode = 'PKC_1003' | 'PKC_1004' | 'PKC_1005';

/**
 * The RFC 6750 §3 challenge of a bearer route's 401. A request without bearer credentials (no
 * header, or another scheme) gets no error attribute, as §3.1 asks; a Bearer header that is not one
 * token is `invalid_request`; a token that is bad or expired is `invalid_token`. Descriptions are
 * fixed ASCII text without quotes or backslashes, as the quoted-string syntax requires.
 */
export function bearerChallengeFor(code: BearerRefusalCode, authorizationHeader: string | undefined): string {
  const challenge = `Bearer realm="${authenticationRealm}"`;
  switch (code) {
    case 'PKC_1005':
      if (authorizationHeader === undefined || !bearerScheme.test(authorizationHeader.trim())) return challenge;
      return `${challenge}, error="invalid_request", error_description="The Authorization header must be Bearer followed by one access token"`;
    case 'PKC_1004':
      return `${challenge}, error="invalid_token", error_description="The access token is malformed, tampered with, or issued elsewhere"`;
    case 'PKC_1003':
      return `${challenge}, error="invalid_token", error_description="The access token expired"`;
  }
}
