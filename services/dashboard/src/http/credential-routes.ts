import { randomUUID } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import type { PartnerApi } from '../upstream/partner-api';
import { auditOf, personOf, type PeopleDependencies } from '../use-cases/people-dependencies';
import { originOf, parsedInput } from './console-request';
import { memberOf, requireFreshCode, requireMember } from './member-session';
import { ownerRefusal } from './partner-calls';

export const credentialPaths = {
  credentials: '/api/v1/credentials',
  secondSecret: '/api/v1/credentials/client-secrets',
  revokePrevious: '/api/v1/credentials/client-secrets/revoke-previous',
} as const;

const changeBody = z.object({ code: z.string().regex(/^\d{6}$/, 'the six digits your authenticator app shows now').optional() });

/**
 * The partner's API credentials (admins change them, with a fresh MFA check): the client id and
 * the two-secret rotation at auth — add a second secret (shown once; both get tokens), deploy it,
 * then revoke the previous one. An Idempotency-Key header makes a retried click the same change.
 */
export function mountCredentialRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string, api: PartnerApi): void {
  app.get(credentialPaths.credentials, ...requireMember(deps, consoleOrigin, 'read'), async (_req, res) => {
    res.json({ success: true, data: await api.clientSecretSlots(memberOf(res).partnerId, requestIdOf(res)) });
  });

  const change = (step: 'add_second' | 'revoke_previous') => async (req: Request, res: Response): Promise<void> => {
    parsedInput(changeBody, req.body);
    const member = memberOf(res);
    const idempotencyKey = req.get('idempotency-key');
    if (idempotencyKey !== undefined && !z.uuid().safeParse(idempotencyKey).success) throw new ConsoleError('CON_2001', 'The Idempotency-Key header must be a UUID (or left out)');
    const answer = await api.changeClientSecrets(
      { requestId: idempotencyKey ?? randomUUID(), partnerId: member.partnerId, step, actor: { kind: 'member', id: member.memberId, displayName: member.displayName, partnerId: member.partnerId } },
      requestIdOf(res),
    );
    const changed = answer.status === 200 ? (answer.body as { replayed: boolean; currentSince: string; secondSince: string | null }) : undefined;
    await auditOf(deps, originOf(req, res), {
      actor: personOf(member),
      action: step === 'add_second' ? 'credentials.client_secret.add_second' : 'credentials.client_secret.revoke_previous',
      target: { kind: 'client', id: member.partnerId },
      partnerId: member.partnerId,
      ...(changed ? { after: { currentSince: changed.currentSince, secondSince: changed.secondSince, replayed: changed.replayed }, outcome: 'done' as const } : { outcome: 'refused' as const, reason: `auth answered ${answer.status}` }),
    });
    if (!changed) throw ownerRefusal(answer);
    // The new secret is in this answer only (add_second, first call); it is never logged or kept.
    res.status(answer.status).json({ success: true, data: answer.body });
  };
  app.post(credentialPaths.secondSecret, ...requireMember(deps, consoleOrigin, 'manage_credentials'), requireFreshCode(deps), change('add_second'));
  app.post(credentialPaths.revokePrevious, ...requireMember(deps, consoleOrigin, 'manage_credentials'), requireFreshCode(deps), change('revoke_previous'));
}
