import { provisionServiceRoles, type ProvisionedService } from '@pwa/db';
import { runOperatorCli } from '../operator-cli';
import { DatabaseRolesUsageError, databaseServices, planFromEnvironment, type Plan } from './plan';

/**
 * The database-roles operator CLI (`npm run operator -- provision-database-roles`; the chart's
 * optional database-roles hook and compose's database-roles service run it as
 * `node libs/runtime/dist/database-roles/main.js provision`). It belongs to no service: with
 * ADMIN_DATABASE_URL it gives every service the two roles its URLs name (libs/db service-roles):
 * <SVC>_DATABASE_URL names the runtime role and its password, <SVC>_MIGRATION_DATABASE_URL the
 * owner role and its password. A service with neither variable is skipped. Passwords reach the
 * server as SCRAM verifiers only, and no URL or password is ever printed.
 */
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
