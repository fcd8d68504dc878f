import { PkcError } from '@pwa/errors';
import { partnerPermissions, type PartnerPermission } from '../partner-events';
import { isUuid } from './wire-fields';

/**
 * The asserted partner identity (decision 0058): an edge (the gateway today, the partner dashboard
 * next) admits a request, then tells the internal service it calls which partner is calling in
 * these headers. The services trust them because only the edges can reach them (the network
 * policies); an edge builds its upstream headers from scratch, so a client's own x-partner-*
 * headers never get through.
 */
export const partnerIdentityHeaderNames = {
  partnerId: 'x-partner-id',
  clientId: 'x-partner-client-id',
  /** The partner's permissions, comma-separated ("collection,disbursement"; empty for none). */
  permissions: 'x-partner-permissions',
  /** The requests per minute the edge admits for the partner (the gateway's effective rate limit); only the gateway sends it. */
  rateLimitPerMinute: 'x-partner-rate-limit',
  /**
   * Who of the partner is acting, when the edge knows (decision 0058, addendum): `member:<uuid>`, a
   * member of the partner's team signed in to the dashboard; `client:<uuid>`, the API client the
   * gateway authenticated. Optional: a caller that names none is answered as before.
   */
  actor: 'x-partner-actor',
} as const;

/** The two kinds of actor an edge names: a dashboard member, or an API client of the partner. */
export const partnerActorKinds = ['member', 'client'] as const;
export type PartnerActorKind = (typeof partnerActorKinds)[number];

/** An actor as the header carries it and as the owners record it: its kind and its id (a UUID, in lower case). */
export type PartnerActor = `${PartnerActorKind}:${string}`;

/** The actor of a dashboard call: the signed-in member. */
export function memberActor(memberId: string): PartnerActor {
  return actorOf('member', memberId);
}

/** The actor of a gateway call: the API client that authenticated. */
export function clientActor(clientId: string): PartnerActor {
  return actorOf('client', clientId);
}

function actorOf(kind: PartnerActorKind, id: string): PartnerActor {
  if (!isUuid(id)) throw new Error(`a ${kind} actor's id must be a UUID`);
  return `${kind}:${id.toLowerCase()}`;
}

/** Who an edge admitted: the partner, the API client it authenticated as, and the permissions the partner holds now. */
export interface PartnerIdentity {
  partnerId: string;
  clientId: string;
  permissions: readonly PartnerPermission[];
}

/**
 * What a service reads from the headers: always the partner (its id in lower case); the client and
 * the permissions only when the edge sent them (a caller that names only the partner, as the
 * operations guide's direct calls do, is answered as before).
 */
export interface AssertedPartner {
  partnerId: string;
  clientId: string | undefined;
  permissions: readonly PartnerPermission[] | undefined;
  /** The partner's effective rate limit, when the edge that admitted it applies one (the gateway). */
  rateLimitPerMinute: number | undefined;
  /** Who of the partner is acting, when the edge named them (member:<uuid> or client:<uuid>). */
  actor: PartnerActor | undefined;
}

/** Request headers as Node reads them (names in lower case); express's `req.headers` is one. */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The refusal of a request without a partner identity: every service answers it with this code and message. */
export const partnerIdentityRefusalCode = 'PKC_6005';
export const partnerIdentityRefusalMessage = `${partnerIdentityHeaderNames.partnerId} header missing or not a UUID`;

/**
 * The headers an edge sends with every request it admitted for a partner (with the rate limit it
 * applied, when it applies one, and who of the partner is acting, when it knows).
 */
export function partnerIdentityHeadersOf(identity: PartnerIdentity, admitted: { rateLimitPerMinute?: number; actor?: PartnerActor } = {}): Record<string, string> {
  return {
    [partnerIdentityHeaderNames.partnerId]: identity.partnerId,
    [partnerIdentityHeaderNames.clientId]: identity.clientId,
    [partnerIdentityHeaderNames.permissions]: identity.permissions.join(','),
    ...(admitted.rateLimitPerMinute === undefined ? {} : { [partnerIdentityHeaderNames.rateLimitPerMinute]: String(admitted.rateLimitPerMinute) }),
    ...(admitted.actor === undefined ? {} : { [partnerIdentityHeaderNames.actor]: admitted.actor }),
  };
}

/**
 * The partner an edge says is calling, or the refusal (403 PKC_6005) when the request names none:
 * without an edge's word there is no partner to act for. A client id or permission list that is
 * sent must be well formed too, since a malformed one means the request did not come from an edge.
 */
export function assertedPartnerOf(headers: RequestHeaders): AssertedPartner {
  const partnerId = headers[partnerIdentityHeaderNames.partnerId];
  if (!isUuid(partnerId)) throw new PkcError(partnerIdentityRefusalCode, partnerIdentityRefusalMessage);
  return {
    partnerId: partnerId.toLowerCase(),
    clientId: clientIdOf(headers[partnerIdentityHeaderNames.clientId]),
    permissions: permissionsOf(headers[partnerIdentityHeaderNames.permissions]),
    rateLimitPerMinute: rateLimitOf(headers[partnerIdentityHeaderNames.rateLimitPerMinute]),
    actor: actorOfHeader(headers[partnerIdentityHeaderNames.actor]),
  };
}

/**
 * What the owners write in a partner change's log line: the partner, and the actor when an edge
 * named one (null when none did, so the field is always there to search on).
 */
export function partnerChangeLogFields(partner: Pick<AssertedPartner, 'partnerId' | 'actor'>): { partnerId: string; actor: PartnerActor | null } {
  return { partnerId: partner.partnerId, actor: partner.actor ?? null };
}

/** An actor that is sent must be one an edge writes; the refusal names the header and its form, never the value. */
function actorOfHeader(header: string | readonly string[] | undefined): PartnerActor | undefined {
  if (header === undefined) return undefined;
  const [kind, id, ...rest] = typeof header === 'string' ? header.split(':') : [];
  if (!isPartnerActorKind(kind) || !isUuid(id) || rest.length > 0) {
    throw new PkcError(partnerIdentityRefusalCode, `${partnerIdentityHeaderNames.actor} header not member:<uuid> or client:<uuid>`);
  }
  return actorOf(kind, id);
}

function isPartnerActorKind(name: string | undefined): name is PartnerActorKind {
  return (partnerActorKinds as readonly (string | undefined)[]).includes(name);
}

function rateLimitOf(header: string | readonly string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^[1-9][0-9]{0,9}$/.test(header)) throw new PkcError(partnerIdentityRefusalCode, `${partnerIdentityHeaderNames.rateLimitPerMinute} header not a positive whole number`);
  return Number(header);
}

function clientIdOf(header: string | readonly string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!isUuid(header)) throw new PkcError(partnerIdentityRefusalCode, `${partnerIdentityHeaderNames.clientId} header not a UUID`);
  return header.toLowerCase();
}

function permissionsOf(header: string | readonly string[] | undefined): readonly PartnerPermission[] | undefined {
  if (header === undefined) return undefined;
  // An edge writes one comma-separated value; anything else is not an edge's word.
  const names = typeof header === 'string' ? header.split(',').map((name) => name.trim()).filter((name) => name !== '') : undefined;
  if (names === undefined || !names.every(isPartnerPermission)) {
    throw new PkcError(partnerIdentityRefusalCode, `${partnerIdentityHeaderNames.permissions} header names a permission other than ${partnerPermissions.join(', ')}`);
  }
  return names;
}

function isPartnerPermission(name: string): name is PartnerPermission {
  return (partnerPermissions as readonly string[]).includes(name);
}
