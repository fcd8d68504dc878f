/** RFC 6750: "Bearer", one or more spaces, then a b64token (the characters a bearer token may contain). */
const bearerCredentials = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined when the header is missing
 * or has another form (PKC_1005). Whether the token itself is valid is a separate question (PKC_1004).
 */
export function bearerTokenOf(authorizationHeader: string | undefined): string | undefined {
  if (authorizationHeader === undefined) return undefined;
  return bearerCredentials.exec(authorizationHeader.trim())?.[1];
}
