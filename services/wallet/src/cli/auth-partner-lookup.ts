import { loadConfig, fields, z } from '@pwa/config';
import type { PartnerLookup, KnownPartner } from '../use-cases/operator-postings';
import { OperatorRefusal } from '../use-cases/operator-refusal';

/**
 * fund-partner asks the auth service, which owns partners, whether the partner id exists (its
 * internal API, GET /internal/partners/:partnerId); the wallet never reads auth's schema. AUTH_URL
 * is auth's internal address: npm run operator sets it from the local stack's settings.
 */
const operatorAuthConfigSchema = z.object({ AUTH_URL: fields.url.optional() });

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
  const url = new URL(`/internal/partners/${encodeURIComponent(partnerId)}`, authUrl);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(lookupTimeoutMs), headers: { accept: 'application/json' } });
  } catch (error) {
    throw new OperatorRefusal(`The auth service at ${url.origin} did not answer (${describe(error)}); nothing was posted. Try again once it is up.`);
  }
  const answer: unknown = await response.json().catch(() => undefined);
  // Auth answers an unknown id with its error envelope, code PKC_1009 ("No such partner").
  if (response.status !== 200 && errorCodeSchema.safeParse(answer).data?.code === 'PKC_1009') return undefined;
  if (response.status !== 200) throw new OperatorRefusal(`The auth service answered HTTP ${response.status} for the partner lookup; nothing was posted`);
  const body = partnerBodySchema.safeParse(answer);
  if (!body.success) throw new OperatorRefusal('The auth service answered the partner lookup with an unexpected body; nothing was posted');
  return body.data;
}

const partnerBodySchema = z.object({ partnerId: z.string(), name: z.string(), status: z.string() });
const errorCodeSchema = z.object({ code: z.string() });

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer in ${lookupTimeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code ?? (error instanceof Error ? error.message : String(error));
}
