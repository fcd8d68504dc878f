import { readContractAnswer, webhooksAdminDeliveryPageSchema, webhooksAdminPaths, webhooksAdminRedeliveryAnswerSchema } from '@pwa/contracts';
import { PkcError, type PkcCode } from '@pwa/errors';
import { createUpstreamClient, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { WebhookDeliveriesPort } from '../use-cases/partner-admin-actions';
import { ownerAnswerOf } from './owner-answers';

const redeliveryRefusals: ReadonlySet<PkcCode> = new Set<PkcCode>(['PKC_6001', 'PKC_6002', 'PKC_2008']);

/**
 * The webhooks service's admin routes (libs/contracts webhooks-admin): the delivery backlog and
 * dead letters, and a redelivery by a person. Deadline and breaker from libs/http; a read without
 * an answer is 503 PKC_7003, never an empty list.
 */
export function createWebhooksAdminClient(settings: UpstreamSettings, logger: Logger): WebhookDeliveriesPort & { shutdown(): void } {
  const webhooks = createUpstreamClient({ name: 'webhooks', ...settings, logger });
  const call = (requestId: string | null) => ({ timeoutMs: settings.timeoutMs, ...(requestId === null ? {} : { requestId }) });
  return {
    listDeliveries: async (query, requestId) => {
      const parameters = Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== undefined).map(([name, value]): [string, string] => [name, String(value)]);
      const answer = await webhooks.get(`${webhooksAdminPaths.deliveries}?${new URLSearchParams(parameters).toString()}`, call(requestId)).catch((error: unknown) => {
        throw new PkcError('PKC_7003', `The webhooks service did not answer the read (${error instanceof Error ? error.message : 'no answer'}); try again`);
      });
      const read = readContractAnswer(answer, webhooksAdminDeliveryPageSchema, new Set());
      if (read.kind !== 'answer') throw new PkcError('PKC_7003', `The webhooks service's read answer is outside its contract (${read.kind === 'outside_contract' ? read.problem : read.code}); try again`);
      return read.data;
    },
    redeliver: (body, requestId) => ownerAnswerOf('The webhooks service', webhooks.post(webhooksAdminPaths.redeliveries, body, call(requestId)), webhooksAdminRedeliveryAnswerSchema, redeliveryRefusals),
    shutdown: () => webhooks.shutdown(),
  };
}
