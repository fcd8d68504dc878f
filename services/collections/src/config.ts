import { baseServiceConfigSchema, fields, loadConfig, z } from '@pwa/config';

export const collectionsConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4104),
});

export type CollectionsConfig = z.infer<typeof collectionsConfigSchema>;

export function readCollectionsConfig(env: Record<string, string | undefined>): Readonly<CollectionsConfig> {
  return loadConfig(collectionsConfigSchema, env);
}
