import type { ServiceSchema } from '@pwa/db';

/**
 * What the database commands (provision-database-roles, restore-database) read from the
 * environment: the administrator's URL and, per service, the runtime role's URL
 * (<SVC>_DATABASE_URL) and the owner role's URL (<SVC>_MIGRATION_DATABASE_URL). Refusals name the
 * variable and never echo a value.
 */
export const databaseServices = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks', 'backoffice', 'dashboard'] as const;

export class DatabaseRolesUsageError extends Error {}

export interface Plan {
  adminUrl: string;
  services: ServiceSchema[];
  passwords: Record<string, string>;
}

/** Reads what to provision from the environment; refuses a half-given service or a bad URL by name, never echoing a value. */
export function planFromEnvironment(env: Record<string, string | undefined>, options: { servicesRequired: boolean } = { servicesRequired: true }): Plan {
  const adminUrl = env.ADMIN_DATABASE_URL;
  if (adminUrl === undefined || adminUrl === '') throw new DatabaseRolesUsageError('ADMIN_DATABASE_URL is required');
  const admin = parseUrl('ADMIN_DATABASE_URL', adminUrl);
  const services: ServiceSchema[] = [];
  const passwords: Record<string, string> = {};
  for (const service of databaseServices) {
    const runtimeVariable = `${service.toUpperCase()}_DATABASE_URL`;
    const ownerVariable = `${service.toUpperCase()}_MIGRATION_DATABASE_URL`;
    const runtimeUrl = env[runtimeVariable];
    const ownerUrl = env[ownerVariable];
    if (!runtimeUrl && !ownerUrl) continue;
    if (!runtimeUrl || !ownerUrl) throw new DatabaseRolesUsageError(`${runtimeVariable} and ${ownerVariable} must be set together`);
    const runtime = parseUrl(runtimeVariable, runtimeUrl);
    const owner = parseUrl(ownerVariable, ownerUrl);
    for (const [variable, url] of [[runtimeVariable, runtime], [ownerVariable, owner]] as const) {
      if (url.database !== admin.database) throw new DatabaseRolesUsageError(`${variable} names another database than ADMIN_DATABASE_URL`);
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(url.user)) throw new DatabaseRolesUsageError(`${variable} needs a user of lowercase letters, digits and _`);
      if (url.password) passwords[url.user] = url.password;
    }
    if (runtime.user === owner.user) throw new DatabaseRolesUsageError(`${runtimeVariable} and ${ownerVariable} must name two roles`);
    services.push({ service, schema: service, roles: { owner: owner.user, runtime: runtime.user } });
  }
  if (services.length === 0 && options.servicesRequired) throw new DatabaseRolesUsageError('no service to provision: set <SVC>_DATABASE_URL and <SVC>_MIGRATION_DATABASE_URL');
  return { adminUrl, services, passwords };
}

function parseUrl(variable: string, raw: string): { user: string; password: string; database: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DatabaseRolesUsageError(`${variable} is not a valid URL`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new DatabaseRolesUsageError(`${variable} is not a postgres:// URL`);
  return { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password), database: url.pathname };
}

