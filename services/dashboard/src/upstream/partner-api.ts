import { authAdminActionPaths, authAdminReadPaths, clientSecretSlotsSchema, internal, type ClientSecretChangeRequest, type ClientSecretSlots } from '@pwa/contracts';
import { PkcError } from '@pwa/errors';
import { createInternalJsonClient, requestIdHeader, type InternalJsonClient } from '@pwa/http';
import type { DashboardConfig } from '../config';

/** The services that own a partner's data, as the gateway forwards to them. */
export type PartnerDataOwner = 'wallet' | 'collections' | 'disbursements' | 'webhooks';

export interface PartnerCall {
  owner: PartnerDataOwner;
  method: 'GET' | 'POST';
  /** A partner route of the owner, as the gateway forwards it: `/partner/v1/balance`. */
  path: string;
  body?: unknown;
  /** `text/csv` for the statement's CSV; JSON otherwise. */
  accept?: string;
  /**
   * A change (every POST) is admitted as the gateway admits it (decidePartnerAccess): the partner
   * active, with this permission when one is named. Reads stay open to a suspended partner's team.
   */
  permission?: 'collection' | 'disbursement';
  requestId: string | null;
}

export interface PartnerAnswer {
  status: number;
  body: unknown;
  text: string;
}

/**
 * The dashboard's one way to a partner's data (decision 0074): the member's partner is looked up at
 * auth (its client id and current permissions), then the owner's partner route is called with the
 * asserted identity headers the gateway writes (libs/contracts partner-identity.ts), built from
 * scratch so nothing a browser sent reaches the service. The partner is always the signed-in
 * member's, never an id from the request.
 */
export interface PartnerApi {
  partnerOf(partnerId: string, requestId: string | null): Promise<internal.PartnerLookupAnswer>;
  call(partner: internal.PartnerLookupAnswer, call: PartnerCall): Promise<PartnerAnswer>;
  /** Auth's client secret slots of the partner (never a secret). */
  clientSecretSlots(partnerId: string, requestId: string | null): Promise<ClientSecretSlots>;
  /** The two-secret rotation at auth, as the member: auth's answer as it came (a 4xx refusal is passed on). */
  changeClientSecrets(request: ClientSecretChangeRequest, requestId: string | null): Promise<PartnerAnswer>;
  shutdown(): void;
}

export function createPartnerApi(config: Readonly<Pick<DashboardConfig, 'AUTH_URL' | 'WALLET_URL' | 'COLLECTIONS_URL' | 'DISBURSEMENTS_URL' | 'WEBHOOKS_URL' | 'UPSTREAM_TIMEOUT_MS'>>): PartnerApi {
  const auth = createInternalJsonClient({ baseUrl: config.AUTH_URL });
  const owners: Record<PartnerDataOwner, InternalJsonClient> = {
    wallet: createInternalJsonClient({ baseUrl: config.WALLET_URL }),
    collections: createInternalJsonClient({ baseUrl: config.COLLECTIONS_URL }),
    disbursements: createInternalJsonClient({ baseUrl: config.DISBURSEMENTS_URL }),
    webhooks: createInternalJsonClient({ baseUrl: config.WEBHOOKS_URL }),
  };
  const timeoutMs = config.UPSTREAM_TIMEOUT_MS;
  return {
    partnerOf: async (partnerId, requestId) => {
      const answer = await unlessUnanswered('auth', () => auth.getJson(internal.authPaths.partner(partnerId), { timeoutMs, requestId: requestId ?? undefined }));
      const parsed = answer.status === 200 ? internal.partnerLookupAnswerSchema.safeParse(answer.body) : undefined;
      if (!parsed?.success) throw new PkcError('PKC_7003', `Auth did not give the partner's settings (status ${answer.status}); try again`);
      return parsed.data;
    },
    call: async (partner, call) => {
      const body = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
      const headers: Record<string, string> = {
        ...internal.partnerIdentityHeadersOf({ partnerId: partner.partnerId, clientId: partner.clientId, permissions: partner.permissions }),
        accept: call.accept ?? 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(call.requestId === null ? {} : { [requestIdHeader]: call.requestId }),
      };
      const answer = await unlessUnanswered(call.owner, () => owners[call.owner].exchange({ method: call.method, path: call.path, headers, body, timeoutMs }));
      const text = answer.body.toString('utf8');
      return { status: answer.status, text, body: jsonOrUndefined(text, answer.headers['content-type']) };
    },
    clientSecretSlots: async (partnerId, requestId) => {
      const answer = await unlessUnanswered('auth', () => auth.getJson(authAdminReadPaths.partnerClientSecrets(partnerId), { timeoutMs, requestId: requestId ?? undefined }));
      const parsed = answer.status === 200 ? clientSecretSlotsSchema.safeParse(answer.body) : undefined;
      if (!parsed?.success) throw new PkcError('PKC_7003', `Auth did not give the client secrets' state (status ${answer.status}); try again`);
      return parsed.data;
    },
    changeClientSecrets: async (request, requestId) => {
      const answer = await unlessUnanswered('auth', () => auth.postJson(authAdminActionPaths.partnerClientSecretChanges, request, { timeoutMs, requestId: requestId ?? undefined }));
      return { status: answer.status, body: answer.body, text: answer.text };
    },
    shutdown: () => {
      auth.close();
      for (const client of Object.values(owners)) client.close();
    },
  };
}

async function unlessUnanswered<T>(owner: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw new PkcError('PKC_7003', `The ${owner} service did not answer (${error instanceof Error ? error.message : 'no answer'}); nothing is known to have changed: try again`);
  }
}

function jsonOrUndefined(text: string, contentType: string | undefined): unknown {
  if (!contentType?.includes('json')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
