import { fields, loadConfig, z } from '@pwa/config';

/**
 * Settings of the back-office's set-up commands (the bootstrap of the first admin): the database,
 * and the console's address as people open it, which the set-up link points at. No default: a
 * link to the wrong host would hand a set-up token to someone else.
 */
export const backofficeSetupConfigSchema = z.object({
  LOG_LEVEL: fields.logLevel,
  ENVIRONMENT: fields.environment,
  DATABASE_URL: fields.databaseUrl,
  BACKOFFICE_PUBLIC_URL: fields.url.refine((value) => /^https:\/\//.test(value) || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(`${value}/`), {
    message: 'must be an https:// address (http:// only on 127.0.0.1 or localhost)',
  }),
});

export type BackofficeSetupConfig = z.infer<typeof backofficeSetupConfigSchema>;

/** The one place that reads the process environment for the set-up commands; tests pass their own. */
export function readBackofficeSetupConfig(env: Record<string, string | undefined> = process.env): Readonly<BackofficeSetupConfig> {
  return loadConfig(backofficeSetupConfigSchema, env);
}
