import { provisionServiceRoles, type ProvisionedService, type ServiceSchema } from '@pwa/db';
import { runOperatorCli } from '../operator-cli';

/**
 * The database-roles operator CLI (`npm run operator -- provision-database-roles`; the chart's
 * optional database-roles hook and compose's database-roles service run it as
 * `node libs/runtime/dist/database-roles/main.js provision`). It belongs to no service: with
 * ADMIN_DATABASE_URL it gives every service the two roles its URLs name (libs/db service-roles):
 * <SVC>_DATABASE_URL names the runtime role and its password, <SVC>_MIGRATION_DATABASE_URL the
 * owner role and its password. A service with neither variable is skipped. Passwords reach the
 * server as SCRAM verifiers only, and no URL or password is ever printed.
 */
const databaseServices = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks'] as const;

const usage = `Database roles (PostgreSQL, as ADMIN_DATABASE_URL: a role with CREATEROLE that owns the database, or a superuser):
  provision      (also: provision-database-roles)
      For each service whose URLs are set, creates or updates its two roles and gives the runtime
      role DML on the service's own schema only; the owner role owns the schema (creating it, or
      adopting one an earlier install made). Idempotent: run it again after adding a service.
Environment:
  ADMIN_DATABASE_URL                 the administrator's URL of the target database
  <SVC>_DATABASE_URL                 the service's runtime role: user and password (what the service gets as DATABASE_URL)
  <SVC>_MIGRATION_DATABASE_URL       the service's owner role: user and password (MIGRATION_DATABASE_URL)
  <SVC>: ${databaseServices.map((service) => service.toUpperCase()).join(', ')}
Options: --json (one JSON object on stdout), --help
`;

class DatabaseRolesUsageError extends Error {}

interface Plan {
  adminUrl: string;
  services: ServiceSchema[];
  passwords: Record<string, string>;
}

/** Reads what to provision from the environment; refuses a half-given service or a bad URL by name, never echoing a value. */
function planFromEnvironment(env: Record<string, string | undefined>): Plan {
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
  if (services.length === 0) throw new DatabaseRolesUsageError('no service to provision: set <SVC>_DATABASE_URL and <SVC>_MIGRATION_DATABASE_URL');
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

runOperatorCli<Plan>({
  usage,
  stringOptions: [],
  isUsageError: (error) => error instanceof DatabaseRolesUsageError,
  open: () => Promise.resolve({ context: planFromEnvironment(process.env), close: () => Promise.resolve() }),
  run: async (plan, command, args) => {
    if (command !== 'provision' && command !== 'provision-database-roles') throw new DatabaseRolesUsageError(`unknown command ${command}`);
    if (args.length > 0) throw new DatabaseRolesUsageError(`unexpected argument ${args[0] ?? ''}`);
    const provisioned = await provisionServiceRoles({ adminUrl: plan.adminUrl, services: plan.services, passwords: plan.passwords });
    return { data: { provisioned }, text: provisioned.map(describe).join('\n') };
  },
});

function describe(service: ProvisionedService): string {
  const adopted = service.adopted > 0 ? `; adopted ${service.adopted} existing object(s)` : '';
  return `${service.service}: schema ${service.schema} owned by ${service.owner}, ${service.runtime} may read and write its rows${adopted}`;
}
