import { baseServiceConfigSchema, fields, loadConfig, z } from '@pwa/config';

export const disbursementsConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4105),
});

export type DisbursementsConfig = z.infer<typeof disbursementsConfigSchema>;

export function readDisbursementsConfig(env: Record<string, string | undefined>): Readonly<DisbursementsConfig> {
  return loadConfig(disbursementsConfigSchema, env);
}
