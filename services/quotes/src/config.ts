import { baseServiceConfigSchema, breakerConfigFields, breakerKeysRenamedFrom, fields, loadConfig, z } from '@pwa/config';
import { currencies, type Currency } from '@pwa/money';

/**
 * A comma-separated list of currencies ("LRD,USD"); an empty value switches the operation off for
 * every currency (each quote then answers PKC_2010).
 */
const currencyList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, context) => {
      const names = text
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name.length > 0);
      const unknown = names.filter((name) => !(currencies as readonly string[]).includes(name));
      if (unknown.length > 0) {
        context.addIssue({ code: 'custom', message: `unknown currency ${unknown.join(', ')}; use ${currencies.join(', ')}` });
        return z.NEVER;
      }
      return [...new Set(names)] as Currency[];
    });

/** Settings the operator CLI needs: the database and the environment. */
export const quotesStoreConfigSchema = z.object({
  LOG_LEVEL: fields.logLevel,
  ENVIRONMENT: fields.environment,
  DATABASE_URL: fields.databaseUrl,
});

export const quotesConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4103),
  WALLET_URL: fields.url.default('http://127.0.0.1:4102'),
  /** Deadline of one wallet check; the gateway's own deadline (10 s) must stay well above it. */
  WALLET_TIMEOUT_MS: fields.milliseconds(3_000),
  /** The breaker towards the wallet; while open, quotes answer 503 PKC_7003 without calling it. */
  ...breakerConfigFields,
  /** The spec fixes 10 minutes; tests shorten it to observe expiry. */
  QUOTE_LIFETIME_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  QUOTES_COLLECTION_CURRENCIES: currencyList('LRD,USD'),
  QUOTES_DISBURSEMENT_CURRENCIES: currencyList('LRD,USD'),
});

/** WALLET_BREAKER_* are now BREAKER_*; the old names are read for one more release, and main.ts warns of them. */
export const quotesRenamedKeys = breakerKeysRenamedFrom('WALLET_');

export type QuotesConfig = z.infer<typeof quotesConfigSchema>;
export type QuotesStoreConfig = z.infer<typeof quotesStoreConfigSchema>;

/** The one place that reads the process environment; tests pass their own. */
export function readQuotesConfig(env: Record<string, string | undefined> = process.env): Readonly<QuotesConfig> {
  return loadConfig(quotesConfigSchema, env, { renamedKeys: quotesRenamedKeys });
}

export function readQuotesStoreConfig(env: Record<string, string | undefined> = process.env): Readonly<QuotesStoreConfig> {
  return loadConfig(quotesStoreConfigSchema, env);
}
