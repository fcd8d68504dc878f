import { internal } from '@pwa/contracts';
import type { z } from '@pwa/config';
import { createUpstreamClient, isUpstreamFailure, type UpstreamAnswer, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';

/**
 * The auth service's partner directory (GET /internal/partner-directory[/:partnerId], owned by
 * auth: libs/contracts internal/auth): every partner with what a version-1 partner event carries
 * (settings and the sealed webhook secrets) and when it last changed. The webhooks service reads it
 * to rebuild its copy of partners without the events it missed, through the one upstream client.
 */
export type PartnerDirectoryEntry = internal.PartnerDirectoryEntry;
export type PartnerDirectoryPage = internal.PartnerDirectoryPage;

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

export function authPartnerDirectory(settings: UpstreamSettings, logger: Logger): PartnerDirectory & { shutdown(): void } {
  const auth = createUpstreamClient({ name: 'auth', ...settings, logger });
  const get = async (path: string): Promise<UpstreamAnswer> => {
    try {
      return await auth.get(path, { timeoutMs: settings.timeoutMs });
    } catch (error) {
      if (isUpstreamFailure(error)) throw new PartnerDirectoryError(`the auth service at ${new URL(settings.baseUrl).origin} did not answer (${error.reason})`);
      throw error;
    }
  };
  return {
    page: async (afterPartnerId) => {
      const answer = await get(internal.authPaths.partnerDirectory({ limit: pageSize, after: afterPartnerId }));
      if (answer.status !== 200) throw new PartnerDirectoryError(`the partner directory answered HTTP ${answer.status}`);
      return parse(internal.partnerDirectoryPageSchema, answer.body);
    },
    partner: async (partnerId) => {
      const answer = await get(internal.authPaths.partnerDirectoryEntry(partnerId));
      if (answer.status !== 200 && internal.refusalSchema.safeParse(answer.body).data?.code === internal.unknownPartnerCode) return undefined;
      if (answer.status !== 200) throw new PartnerDirectoryError(`the partner directory answered HTTP ${answer.status}`);
      return parse(internal.partnerDirectoryEntrySchema, answer.body);
    },
    shutdown: () => auth.shutdown(),
  };
}

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new PartnerDirectoryError(`the partner directory answered a body that does not parse: ${parsed.error.issues[0]?.path.join('.') ?? ''}`);
  return parsed.data;
}
