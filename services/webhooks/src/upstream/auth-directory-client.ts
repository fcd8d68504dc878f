import { partnerEventDataSchema } from '@pwa/contracts';
import { z } from '@pwa/config';

/**
 * The auth service's partner directory (GET /internal/partner-directory[/:partnerId], owned by
 * auth): every partner with what a version-1 partner event carries (settings and the sealed
 * webhook secrets) and when it last changed. The webhooks service reads it to rebuild its copy of
 * partners without the events it missed.
 */
const directoryEntrySchema = partnerEventDataSchema.extend({
  webhookSecrets: partnerEventDataSchema.shape.webhookSecrets.unwrap(),
  changedAt: z.iso.datetime({ offset: true }),
});
export type PartnerDirectoryEntry = z.infer<typeof directoryEntrySchema>;

const directoryPageSchema = z.object({ partners: z.array(directoryEntrySchema), nextAfter: z.uuid().nullable() });
export type PartnerDirectoryPage = z.infer<typeof directoryPageSchema>;

/** Where the directory is read from; tests and the service use the HTTP one below. */
export interface PartnerDirectory {
  page(afterPartnerId: string | null): Promise<PartnerDirectoryPage>;
  /** undefined when auth knows no such partner. */
  partner(partnerId: string): Promise<PartnerDirectoryEntry | undefined>;
}

export class PartnerDirectoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PartnerDirectoryError';
  }
}

const pageSize = 200;

export function authPartnerDirectory(authUrl: string, timeoutMs: number): PartnerDirectory {
  const get = async (path: string): Promise<{ status: number; body: unknown }> => {
    const url = new URL(path, authUrl);
    try {
      const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
      return { status: response.status, body: await response.json().catch(() => undefined) };
    } catch (error) {
      const cause = error instanceof Error ? ((error.cause as { code?: string } | undefined)?.code ?? error.name) : 'unknown error';
      throw new PartnerDirectoryError(`the auth service at ${url.origin} did not answer (${cause})`);
    }
  };
  return {
    page: async (afterPartnerId) => {
      const query = new URLSearchParams({ limit: String(pageSize), ...(afterPartnerId === null ? {} : { after: afterPartnerId }) });
      const answer = await get(`/internal/partner-directory?${query.toString()}`);
      if (answer.status !== 200) throw new PartnerDirectoryError(`the partner directory answered HTTP ${answer.status}`);
      return parse(directoryPageSchema, answer.body);
    },
    partner: async (partnerId) => {
      const answer = await get(`/internal/partner-directory/${encodeURIComponent(partnerId)}`);
      if (answer.status !== 200 && (answer.body as { code?: unknown } | undefined)?.code === 'PKC_1009') return undefined;
      if (answer.status !== 200) throw new PartnerDirectoryError(`the partner directory answered HTTP ${answer.status}`);
      return parse(directoryEntrySchema, answer.body);
    },
  };
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new PartnerDirectoryError(`the partner directory answered a body that does not parse: ${parsed.error.issues[0]?.path.join('.') ?? ''}`);
  return parsed.data;
}
