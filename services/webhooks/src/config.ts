import { baseServiceConfigSchema, fields, loadConfig, z } from '@pwa/config';

export const webhooksConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4106),
});

export type WebhooksConfig = z.infer<typeof webhooksConfigSchema>;

export function readWebhooksConfig(env: Record<string, string | undefined>): Readonly<WebhooksConfig> {
  return loadConfig(webhooksConfigSchema, env);
}
