import {
  adminChangeAnswerSchema,
  authAdminActionPaths,
  authAdminPartnerDetailSchema,
  authAdminPartnerPageSchema,
  authAdminPaths,
  authAdminReadPaths,
  authPartnerOnboardingAnswerSchema,
  authPartnerSecretRotationAnswerSchema,
  clientSecretChangeAnswerSchema,
  clientSecretSlotsSchema,
  internal,
  readContractAnswer,
} from '@pwa/contracts';
import { PkcError, type PkcCode } from '@pwa/errors';
import { createUpstreamClient, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { AuthAdminPort } from '../use-cases/action-executors';
import type { PartnerDirectory } from '../use-cases/four-eyes-requests';
import type { PartnerReads } from '../use-cases/console-reads';
import type { PartnerActionsPort } from '../use-cases/partner-admin-actions';
import { settingsChangeExecution } from './admin-answers';
import { ownerAnswerOf } from './owner-answers';

const unknownPartner: ReadonlySet<PkcCode> = new Set<PkcCode>([internal.unknownPartnerCode]);
const unknownAdminPartner: ReadonlySet<PkcCode> = new Set<PkcCode>(['PKC_6002']);
/** A person's change auth refuses for good: a body it does not accept (a webhook URL, say), a request id used otherwise, an unknown partner. */
const actionRefusals: ReadonlySet<PkcCode> = new Set<PkcCode>(['PKC_2008', 'PKC_6001', 'PKC_6002', 'PKC_6004']);

/** A read auth did not answer under its contract: the console says the dependency is away (503), never guesses. */
function authAway(problem: string): PkcError {
  return new PkcError('PKC_7003', `Auth did not answer the partner read (${problem}); try again`);
}

/**
 * Auth for the back-office: its admin route for a partner's status, permissions and rate limit
 * (libs/contracts auth-admin), and its partner lookup, which tells at request time whether a
 * partner exists. Deadline and breaker from libs/http; no answer throws.
 */
export function createAuthAdminClient(settings: UpstreamSettings, logger: Logger): AuthAdminPort & PartnerDirectory & PartnerReads & PartnerActionsPort & { shutdown(): void } {
  const auth = createUpstreamClient({ name: 'auth', ...settings, logger });
  const call = (requestId: string | null) => ({ timeoutMs: settings.timeoutMs, ...(requestId === null ? {} : { requestId }) });
  return {
    changePartner: async (change, requestId) => settingsChangeExecution('auth', await auth.post(authAdminPaths.partnerChanges, change, call(requestId))),
    partnerExists: async (partnerId, requestId) => {
      const read = readContractAnswer(await auth.get(internal.authPaths.partner(partnerId), call(requestId)), internal.partnerLookupAnswerSchema, unknownPartner);
      if (read.kind === 'answer') return true;
      if (read.kind === 'refusal') return false;
      throw new Error(`auth's partner lookup answer is outside its contract: ${read.problem}`);
    },
    searchPartners: async (query, requestId) => {
      const answer = await auth.get(authAdminReadPaths.partners(query), call(requestId)).catch((error: unknown) => {
        throw authAway(error instanceof Error ? error.message : 'no answer');
      });
      const read = readContractAnswer(answer, authAdminPartnerPageSchema, new Set());
      if (read.kind !== 'answer') throw authAway(read.kind === 'outside_contract' ? read.problem : read.code);
      return read.data;
    },
    partnerDetail: async (partnerId, requestId) => {
      const answer = await auth.get(authAdminReadPaths.partner(partnerId), call(requestId)).catch((error: unknown) => {
        throw authAway(error instanceof Error ? error.message : 'no answer');
      });
      const read = readContractAnswer(answer, authAdminPartnerDetailSchema, unknownAdminPartner);
      if (read.kind === 'answer') return read.data;
      if (read.kind === 'refusal') return undefined;
      throw authAway(read.problem);
    },
    clientSecretSlots: async (partnerId, requestId) => {
      const answer = await auth.get(authAdminReadPaths.partnerClientSecrets(partnerId), call(requestId)).catch((error: unknown) => {
        throw authAway(error instanceof Error ? error.message : 'no answer');
      });
      const read = readContractAnswer(answer, clientSecretSlotsSchema, unknownAdminPartner);
      if (read.kind === 'answer') return read.data;
      if (read.kind === 'refusal') return undefined;
      throw authAway(read.problem);
    },
    // A person's changes without four eyes (issue 27): the onboarding's answer carries the secrets once; this client never logs a body.
    onboardPartner: (body, requestId) => ownerAnswerOf('Auth', auth.post(authAdminActionPaths.partnerOnboardings, body, call(requestId)), authPartnerOnboardingAnswerSchema, actionRefusals),
    setWebhookUrl: (body, requestId) => ownerAnswerOf('Auth', auth.post(authAdminActionPaths.partnerWebhookUrls, body, call(requestId)), adminChangeAnswerSchema, actionRefusals),
    rotateSecret: (body, requestId) => ownerAnswerOf('Auth', auth.post(authAdminActionPaths.partnerSecretRotations, body, call(requestId)), authPartnerSecretRotationAnswerSchema, actionRefusals),
    changeClientSecrets: (body, requestId) => ownerAnswerOf('Auth', auth.post(authAdminActionPaths.partnerClientSecretChanges, body, call(requestId)), clientSecretChangeAnswerSchema, actionRefusals),
    shutdown: () => auth.shutdown(),
  };
}
