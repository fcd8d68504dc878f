import { authAdminPaths, internal, readContractAnswer } from '@pwa/contracts';
import type { PkcCode } from '@pwa/errors';
import { createUpstreamClient, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { AuthAdminPort } from '../use-cases/action-executors';
import type { PartnerDirectory } from '../use-cases/four-eyes-requests';
import { settingsChangeExecution } from './admin-answers';

const unknownPartner: ReadonlySet<PkcCode> = new Set<PkcCode>([internal.unknownPartnerCode]);

/**
 * Auth for the back-office: its admin route for a partner's status, permissions and rate limit
 * (libs/contracts auth-admin), and its partner lookup, which tells at request time whether a
 * partner exists. Deadline and breaker from libs/http; no answer throws.
 */
export function createAuthAdminClient(settings: UpstreamSettings, logger: Logger): AuthAdminPort & PartnerDirectory & { shutdown(): void } {
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
    shutdown: () => auth.shutdown(),
  };
}
