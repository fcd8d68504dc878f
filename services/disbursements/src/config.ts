import { walletTransferBatchItemsMax } from '@pwa/contracts';
import { amqpConfigFields, baseServiceConfigSchema, breakerConfigFields, breakerKeysRenamedFrom, ConfigError, fields, loadConfig, outboxConfigFields, outboxRelayTestHooks, z } from '@pwa/config';

/** The spec's processing budget of one transfer call; the gateway's transfer timeout (30 s) stays above it. */
export const disbursementBudgetMsDefault = 25_000;

export const disbursementsConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4105),
  ...amqpConfigFields,
  BUS_EXCHANGE: fields.busExchange,
  ...outboxConfigFields,
  QUOTES_URL: fields.url.default('http://127.0.0.1:4103'),
  WALLET_URL: fields.url.default('http://127.0.0.1:4102'),
  /** Measured from the request's arrival; covers quote consumption and the wallet posting. Tests shorten it. */
  DISBURSEMENT_BUDGET_MS: z.coerce.number().int().min(1).max(28_000).default(disbursementBudgetMsDefault),
  /** Deadline of the quote consumption call, further capped by what is left of the budget. */
  QUOTES_TIMEOUT_MS: fields.milliseconds(5_000),
  /**
   * Deadline of the cancellation sent after the budget ran out. It runs after the budget, so
   * budget + this must stay below the gateway's transfer timeout (30 s) for the partner to get our answer.
   */
  WALLET_CANCEL_TIMEOUT_MS: z.coerce.number().int().min(1).max(10_000).default(4_000),
  /** One breaker each for quotes and wallet postings (cancellations bypass it). */
  ...breakerConfigFields,
  /** How often disbursements left processing (crash, unreachable wallet) are settled by cancelling their transfer id. */
  SETTLEMENT_SWEEP_INTERVAL_MS: fields.milliseconds(5_000),
  /** Bulk payouts (decision 0055): how often the processor looks for accepted items (a bulk transfer also wakes it at once). */
  BULK_PROCESSOR_INTERVAL_MS: fields.milliseconds(1_000),
  /** Items per wallet batch: at most the wallet's 200 (one transaction holds the partner's row for the batch). */
  BULK_BATCH_ITEMS: z.coerce.number().int().min(1).max(walletTransferBatchItemsMax).default(walletTransferBatchItemsMax),
  /** How long the wallet may take to answer one batch. */
  BULK_BATCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(20_000),
  /** How long a processor's claim on a batch lasts; must exceed BULK_BATCH_TIMEOUT_MS. After a crash, the items wait this long before another pass takes them. */
  BULK_LEASE_MS: z.coerce.number().int().min(200).max(600_000).default(30_000),
});

/** UPSTREAM_BREAKER_* are now BREAKER_*; the old names are read for one more release, and main.ts warns of them. */
export const disbursementsRenamedKeys = breakerKeysRenamedFrom('UPSTREAM_');

/** The production settings and, in the sandbox only, the crash-safety tests' OUTBOX_RELAY_START_DELAY_MS (0 in production). */
export type DisbursementsConfig = z.infer<typeof disbursementsConfigSchema> & z.infer<typeof outboxRelayTestHooks.schema>;

export function readDisbursementsConfig(env: Record<string, string | undefined>): Readonly<DisbursementsConfig> {
  const config = loadConfig(disbursementsConfigSchema, env, { renamedKeys: disbursementsRenamedKeys, testHooks: outboxRelayTestHooks });
  if (config.BULK_LEASE_MS <= config.BULK_BATCH_TIMEOUT_MS) {
    throw new ConfigError([`BULK_LEASE_MS (${config.BULK_LEASE_MS}) must exceed BULK_BATCH_TIMEOUT_MS (${config.BULK_BATCH_TIMEOUT_MS}), or a batch still being posted would be claimed again`]);
  }
  return config;
}
