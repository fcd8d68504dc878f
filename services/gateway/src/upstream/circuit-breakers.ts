import type { InternalRawRequest, InternalRawResponse } from '@pwa/http';

/**
 * How the auth directory reaches auth: one relay through auth's breaker (the `relay` of auth's
 * upstream client, see upstream-clients.ts), its answer as bytes.
 */
export interface UpstreamBreaker {
  fire(request: InternalRawRequest): Promise<InternalRawResponse>;
}
