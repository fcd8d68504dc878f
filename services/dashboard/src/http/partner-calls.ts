import type { Response } from 'express';
import { decidePartnerAccess } from '@pwa/contracts';
import { isPkcCode, PkcError } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import type { PartnerAnswer, PartnerApi, PartnerCall } from '../upstream/partner-api';
import { memberOf } from './member-session';

/**
 * Calls an owner's partner route for the signed-in member's partner (never a partner named in the
 * request), with the member as the actor. A change is refused as the API refuses it for a partner that is not active (PKC_1006,
 * 1007, 1009) or lacks the permission (PKC_1008): the owners trust the edge to have admitted it.
 */
export function partnerCallerOf(api: PartnerApi): (res: Response, call: Omit<PartnerCall, 'requestId' | 'memberId'>) => Promise<PartnerAnswer> {
  return async (res, call) => {
    const requestId = requestIdOf(res);
    const member = memberOf(res);
    const partner = await api.partnerOf(member.partnerId, requestId);
    if (call.method !== 'GET') {
      const admission = decidePartnerAccess(partner, call.permission ?? null);
      if (!admission.allowed) throw new PkcError(admission.code);
    }
    return api.call(partner, { ...call, requestId, memberId: member.memberId });
  };
}

/** An owner's answer to a read of one of the partner's records: unknown and another partner's (403 PKC_6005) read the same. */
export function isNotTheirs(answer: PartnerAnswer): boolean {
  return answer.status === 404 || answer.status === 403;
}

export function dataOf(answer: PartnerAnswer): unknown {
  if (answer.status !== 200) throw ownerRefusal(answer);
  return (answer.body as { data?: unknown } | undefined)?.data;
}

export function listOf(answer: PartnerAnswer, field: 'items' | 'deliveries'): unknown[] {
  const data = dataOf(answer) as Record<string, unknown> | undefined;
  const list = data?.[field] ?? data?.items;
  return Array.isArray(list) ? list : [];
}

export function hasMoreOf(answer: PartnerAnswer): boolean {
  const data = dataOf(answer) as { hasMore?: unknown; nextCursor?: unknown } | undefined;
  return data?.hasMore === true || (typeof data?.nextCursor === 'string' && data.nextCursor !== '');
}

/** An owner's answer as it is: its status and envelope (a 4xx with its PKC code names what to fix); a 5xx is the owner's outage. */
export function passOn(res: Response, answer: PartnerAnswer): void {
  if (answer.status >= 500 || answer.body === undefined) throw ownerRefusal(answer);
  res.status(answer.status).json(answer.body);
}

export function ownerRefusal(answer: PartnerAnswer): Error {
  const body = answer.body as { code?: unknown; message?: unknown } | undefined;
  if (answer.status >= 400 && answer.status < 500 && isPkcCode(body?.code)) {
    return new PkcError(body.code, typeof body.message === 'string' ? body.message : undefined);
  }
  return new PkcError('PKC_7003', `A service holding your data answered ${answer.status}; nothing changed: try again`);
}
