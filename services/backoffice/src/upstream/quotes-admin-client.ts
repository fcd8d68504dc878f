import { quotesAdminPaths } from '@pwa/contracts';
import { createUpstreamClient, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { QuotesAdminPort } from '../use-cases/action-executors';
import { settingsChangeExecution } from './admin-answers';

/** The quotes service's admin route for fee schedules (libs/contracts quotes-admin), with a deadline and a breaker; no answer throws (the sweep retries). */
export function createQuotesAdminClient(settings: UpstreamSettings, logger: Logger): QuotesAdminPort & { shutdown(): void } {
  const quotes = createUpstreamClient({ name: 'quotes', ...settings, logger });
  return {
    setFeeSchedule: async (change, requestId) =>
      settingsChangeExecution('quotes', await quotes.post(quotesAdminPaths.feeSchedules, change, { timeoutMs: settings.timeoutMs, ...(requestId === null ? {} : { requestId }) })),
    shutdown: () => quotes.shutdown(),
  };
}
