import { applyPartnerData, findPartner, type WebhookPartner } from '../store/partner-store';
import type { PartnerDirectoryEntry } from '../upstream/auth-directory-client';
import type { WebhooksDependencies } from './dependencies';

/** Bound of one rebuild: pages of the directory read (200 partners each). */
const directoryPagesMax = 10_000;

/**
 * Rebuilds the local copy of every partner from auth's directory, page by page. Partner events
 * keep the copy current, but only those published after the webhooks queue existed: a partner
 * onboarded before (a fresh deployment order, a restored or wiped table) is known here only after
 * this. Each partner is applied as a partner event would be, so an event newer than the
 * directory's answer is never undone. Returns how many partners were read and how many changed.
 */
export async function rebuildPartnerDirectory(dependencies: WebhooksDependencies): Promise<{ read: number; applied: number }> {
  let after: string | null = null;
  let read = 0;
  let applied = 0;
  for (let pageNumber = 0; pageNumber < directoryPagesMax; pageNumber += 1) {
    const page = await dependencies.partnerDirectory.page(after);
    for (const entry of page.partners) if (await applyEntry(dependencies, entry)) applied += 1;
    read += page.partners.length;
    if (page.nextAfter === null) return { read, applied };
    after = page.nextAfter;
  }
  throw new Error(`the partner directory had more than ${directoryPagesMax} pages`);
}

/**
 * A partner the service meets without knowing it (a delivery for it is due): asked of auth's
 * directory and kept. undefined when auth does not know it either or cannot be asked now (the
 * delivery is retried on its schedule).
 */
export async function learnUnknownPartner(dependencies: WebhooksDependencies, partnerId: string): Promise<WebhookPartner | undefined> {
  try {
    const entry = await dependencies.partnerDirectory.partner(partnerId);
    if (!entry) return undefined;
    await applyEntry(dependencies, entry);
    dependencies.logger.info({ partnerId }, 'unknown partner learned from the auth directory');
    return await findPartner(dependencies.pool, partnerId);
  } catch (error) {
    dependencies.logger.warn({ partnerId, err: error }, 'unknown partner could not be looked up in the auth directory');
    return undefined;
  }
}

async function applyEntry(dependencies: WebhooksDependencies, entry: PartnerDirectoryEntry): Promise<boolean> {
  const { changedAt, ...data } = entry;
  return applyPartnerData(dependencies.pool, data, changedAt);
}
