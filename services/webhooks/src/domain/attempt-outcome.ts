/**
 * Any 2xx is a success (the spec asks receivers for 200, but a 201/202/204 shows the receiver took
 * the event; retrying it would only duplicate). Redirects are not followed, so 3xx fails like 4xx
 * and 5xx: a webhook target must answer itself.
 */
export function isSuccessfulStatus(statusCode: number): boolean {
  return statusCode >= 200 && statusCode <= 299;
}
