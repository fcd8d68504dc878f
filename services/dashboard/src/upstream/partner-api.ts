import {
  authAdminActionPaths,
  authAdminPartnerDetailSchema,
  authAdminReadPaths,
  clientSecretSlotsSchema,
  internal,
  type AuthPartnerSecretRotationRequest,
  type AuthPartnerWebhookUrlRequest,
  type ClientSecretChangeRequest,
  type ClientSecretSlots,
} from '@pwa/contracts';
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
  /** The signed-in member the call is made for: the owners record them as the actor of a change (member:<uuid>). */
  memberId: string;
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
 * member's, never an id from the request; the actor header names that member (member:<uuid>), so
 * the owners record who of the team made a change.
 */
export interface PartnerApi {
  partnerOf(partnerId: string, requestId: string | null): Promise<internal.PartnerLookupAnswer>;
  call(partner: internal.PartnerLookupAnswer, call: PartnerCall): Promise<PartnerAnswer>;
  /** Auth's client secret slots of the partner (never a secret). */
  clientSecretSlots(partnerId: string, requestId: string | null): Promise<ClientSecretSlots>;
  /** Whether auth knows the partner (the first admin is invited only for one it onboarded). */
  partnerExists(partnerId: string): Promise<boolean>;
  /** The partner's webhook URL and its last webhook secret rotation, as auth holds them (never a secret). */
  webhookSettings(partnerId: string, requestId: string | null): Promise<WebhookSettings>;
  /**
   * A change of the partner's settings at auth, as the member: the two-secret client rotation, the
   * webhook URL, the webhook secret's rotation. Auth's answer as it came (a 4xx refusal is passed on).
   */
  changeSettings(change: SettingsChange, requestId: string | null): Promise<PartnerAnswer>;
  shutdown(): void;
}

export interface WebhookSettings {
  webhookUrl: string | null;
  /** The last rotation of the webhook secret (by the operator or the team), if any: when, and until when the previous secrets were kept. */
  lastSecretRotation: { rotatedAt: string; previousSecretsValidUntil: string | null } | null;
}

export type SettingsChange =
  | { kind: 'client_secrets'; request: ClientSecretChangeRequest }
  | { kind: 'webhook_url'; request: AuthPartnerWebhookUrlRequest }
  | { kind: 'webhook_secret'; request: AuthPartnerSecretRotationRequest };

const settingsChangePaths: Record<SettingsChange['kind'], string> = {
  client_secrets: authAdminActionPaths.partnerClientSecretChanges,
  webhook_url: authAdminActionPaths.partnerWebhookUrls,
  webhook_secret: authAdminActionPaths.partnerSecretRotations,
};

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
        ...internal.partnerIdentityHeadersOf({ partnerId: partner.partnerId, clientId: partner.clientId, permissions: partner.permissions }, { actor: internal.memberActor(call.memberId) }),
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
    partnerExists: (partnerId) => partnerExistsAt(auth, partnerId, timeoutMs),
    webhookSettings: async (partnerId, requestId) => {
      const answer = await unlessUnanswered('auth', () => auth.getJson(authAdminReadPaths.partner(partnerId), { timeoutMs, requestId: requestId ?? undefined }));
      const parsed = answer.status === 200 ? authAdminPartnerDetailSchema.safeParse(answer.body) : undefined;
      if (!parsed?.success) throw new PkcError('PKC_7003', `Auth did not give the webhook settings (status ${answer.status}); try again`);
      const rotation = parsed.data.operatorActions.find((action) => action.action === 'partner.webhook_secret.rotate');
      const after = rotation?.after as { rotatedAt?: unknown; previousSecretsValidUntil?: unknown } | undefined;
      return {
        webhookUrl: parsed.data.webhookUrl,
        lastSecretRotation: typeof after?.rotatedAt === 'string' ? { rotatedAt: after.rotatedAt, previousSecretsValidUntil: typeof after.previousSecretsValidUntil === 'string' ? after.previousSecretsValidUntil : null } : null,
      };
    },
    changeSettings: async (change, requestId) => {
      const answer = await unlessUnanswered('auth', () => auth.postJson(settingsChangePaths[change.kind], change.request, { timeoutMs, requestId: requestId ?? undefined }));
      return { status: answer.status, body: answer.body, text: answer.text };
    },
    shutdown: () => {
      auth.close();
      for (const client of Object.values(owners)) client.close();
    },
  };
}

/** Whether auth knows the partner (200) or not (404, 403); anything else is auth's outage, thrown. */
export async function partnerExistsAt(auth: Pick<InternalJsonClient, 'getJson'>, partnerId: string, timeoutMs: number): Promise<boolean> {
  const answer = await unlessUnanswered('auth', () => auth.getJson(internal.authPaths.partner(partnerId), { timeoutMs }));
  if (answer.status === 200) return true;
  if (answer.status === 404 || answer.status === 403) return false;
  throw new PkcError('PKC_7003', `Auth answered ${answer.status} to the partner lookup; try again`);
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
