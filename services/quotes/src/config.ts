import { baseServiceConfigSchema, fields, loadConfig, z } from '@pwa/config';

export const quotesConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4103),
});

export type QuotesConfig = z.infer<typeof quotesConfigSchema>;

export function readQuotesConfig(env: Record<string, string | undefined>): Readonly<QuotesConfig> {
  return loadConfig(quotesConfigSchema, env);
}
