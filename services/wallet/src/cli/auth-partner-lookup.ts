import { breakerConfigFields, breakerSettingsOf, fields, loadConfig, z } from '@pwa/config';
import { internal } from '@pwa/contracts';
import type { UpstreamAnswer } from '@pwa/http';
import { createLogger } from '@pwa/logging';
import type { PartnerLookup, KnownPartner } from '../use-cases/operator-postings';
import { OperatorRefusal } from '../use-cases/operator-refusal';

/**
 * fund-partner asks the auth service, which owns partners, whether the partner id exists (its
 * internal API, GET /internal/partners/:partnerId: libs/contracts internal/auth), through the one
 * upstream client; the wallet never reads auth's schema. AUTH_URL is auth's internal address: npm
 * run operator sets it from the local stack's settings.
 */
const operatorAuthConfigSchema = z.object({ AUTH_URL: fields.url.optional(), ...breakerConfigFields });

const lookupTimeoutMs = 5_000;

export function readOperatorAuthUrl(env: Record<string, string | undefined>): string | undefined {
  return loadConfig(operatorAuthConfigSchema, env).AUTH_URL;
}

export function authPartnerLookup(authUrl: string | undefined): PartnerLookup {
  return {
    find: async (partnerId) => {
      if (authUrl === undefined) {
        throw new OperatorRefusal(
          'fund-partner checks the partner id with the auth service: set AUTH_URL to its internal address ' +
            '(npm run operator sets it for the local stack); nothing was posted',
        );
      }
      return askAuth(authUrl, partnerId);
    },
  };
}

async function askAuth(authUrl: string, partnerId: string): Promise<KnownPartner | undefined> {
  // Loaded here, by the one command that calls auth: @pwa/http brings express and its app, half a
  // second that every other CLI call (create-user, show-balances, check-ledger...) need not pay.
  const { createUpstreamClient, isUpstreamFailure } = await import('@pwa/http');
  const auth = createUpstreamClient({
    name: 'auth',
    baseUrl: authUrl,
    breaker: breakerSettingsOf(loadConfig(z.object(breakerConfigFields), {})),
    logger: createLogger({ service: 'wallet-operator-cli', level: 'silent', environment: 'sandbox' }),
  });
  let answer: UpstreamAnswer;
  try {
    answer = await auth.get(internal.authPaths.partner(partnerId), { timeoutMs: lookupTimeoutMs });
  } catch (error) {
    if (!isUpstreamFailure(error)) throw error;
    const why = error.reason === 'deadline_exceeded' ? `no answer in ${lookupTimeoutMs} ms` : error.message;
    throw new OperatorRefusal(`The auth service at ${new URL(authUrl).origin} did not answer (${why}); nothing was posted. Try again once it is up.`);
  } finally {
    auth.shutdown();
  }
  // Auth answers an unknown id with its error envelope, code PKC_1009 ("No such partner").
  if (answer.status !== 200 && internal.refusalSchema.safeParse(answer.body).data?.code === internal.unknownPartnerCode) return undefined;
  if (answer.status !== 200) throw new OperatorRefusal(`The auth service answered HTTP ${answer.status} for the partner lookup; nothing was posted`);
  const body = internal.partnerLookupAnswerSchema.safeParse(answer.body);
  if (!body.success) throw new OperatorRefusal('The auth service answered the partner lookup with an unexpected body; nothing was posted');
  return body.data;
}
