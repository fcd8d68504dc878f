// The services' own PostgreSQL roles for a local stack (libs/db service-roles): provisioned with
// the stack's database URL as the administrator; each service then runs as its runtime role
// (DATABASE_URL) and migrates as its owner role (MIGRATION_DATABASE_URL). npm start keeps the
// passwords in .local/secrets.json (DATABASE_ROLE_PASSWORDS); the e2e harness gives the roles none
// (loopback logins are trusted there).
import crypto from 'node:crypto';
import { databaseUrlForRole, provisionServiceRoles, serviceRoleNames } from '@pwa/db';
import { asRecord } from './http';
import { readJsonFile, writePrivateJsonFile } from './local-files';
import type { DatabaseServiceName } from './settings';

export interface ServiceDatabaseUrls {
  /** DML on its own schema only. */
  runtime: string;
  /** Owns its schema: migrations. */
  owner: string;
}

/** Every role's password, created once and kept (owner-only file) so restarts reuse them. */
export function loadOrCreateRolePasswords(secretsFile: string, roleNames: readonly string[]): Record<string, string> {
  const stored = readJsonFile(secretsFile) ?? {};
  const passwords: Record<string, string> = {};
  for (const [role, password] of Object.entries(asRecord(stored.DATABASE_ROLE_PASSWORDS) ?? {})) {
    if (typeof password === 'string') passwords[role] = password;
  }
  let created = false;
  for (const role of roleNames) {
    const password = passwords[role];
    if (password === undefined || password.length < 16) {
      passwords[role] = crypto.randomBytes(18).toString('hex');
      created = true;
    }
  }
  if (created) writePrivateJsonFile(secretsFile, { ...stored, DATABASE_ROLE_PASSWORDS: passwords });
  return passwords;
}

/**
 * Provisions the owner and runtime roles of each service (its schema named after it) in the
 * database of adminUrl, with passwords from passwordsFile (made once) or none, and resolves each
 * service's runtime and owner URLs.
 */
export async function provisionDatabaseRoles(
  adminUrl: string,
  services: readonly DatabaseServiceName[],
  { passwordsFile }: { passwordsFile?: string } = {},
): Promise<Partial<Record<DatabaseServiceName, ServiceDatabaseUrls>>> {
  const names = services.map((service) => ({ service, roles: serviceRoleNames(service) }));
  const passwords = passwordsFile ? loadOrCreateRolePasswords(passwordsFile, names.flatMap(({ roles }) => [roles.owner, roles.runtime])) : undefined;
  await provisionServiceRoles({
    adminUrl,
    services: services.map((service) => ({ service, schema: service })),
    ...(passwords ? { passwords } : {}),
  });
  return Object.fromEntries(
    names.map(({ service, roles }) => [
      service,
      {
        runtime: databaseUrlForRole(adminUrl, roles.runtime, passwords?.[roles.runtime]),
        owner: databaseUrlForRole(adminUrl, roles.owner, passwords?.[roles.owner]),
      },
    ]),
  );
}
