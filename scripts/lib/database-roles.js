// The services' own PostgreSQL roles for the local stack (libs/db service-roles): npm start
// provisions them with DATABASE_URL as the administrator, keeps their passwords in
// .local/secrets.json (DATABASE_ROLE_PASSWORDS), and gives each service its runtime role's URL
// (DATABASE_URL) and its owner role's URL (MIGRATION_DATABASE_URL). PWA_DATABASE_ROLES=off runs
// every service as DATABASE_URL instead (a server where that user may not create roles).
'use strict';
const crypto = require('node:crypto');
const { readJsonFile, writePrivateJsonFile } = require('./local-files');

/** Every role's password, created once and kept (owner-only file) so restarts reuse them. */
function loadOrCreateRolePasswords(secretsFile, roleNames) {
  const stored = readJsonFile(secretsFile) ?? {};
  const passwords = { ...(stored.DATABASE_ROLE_PASSWORDS ?? {}) };
  let created = false;
  for (const role of roleNames) {
    if (typeof passwords[role] !== 'string' || passwords[role].length < 16) {
      passwords[role] = crypto.randomBytes(18).toString('hex');
      created = true;
    }
  }
  if (created) writePrivateJsonFile(secretsFile, { ...stored, DATABASE_ROLE_PASSWORDS: passwords });
  return passwords;
}

/**
 * Provisions the roles of every internal service and returns each service's runtime and owner
 * URLs by service name, or undefined when PWA_DATABASE_ROLES=off.
 */
async function provisionLocalDatabaseRoles(settings, env = process.env) {
  if (env.PWA_DATABASE_ROLES === 'off') return undefined;
  const { provisionServiceRoles, serviceRoleNames, databaseUrlForRole } = require('@pwa/db');
  const names = Object.fromEntries(settings.services.map((service) => [service.name, serviceRoleNames(service.name)]));
  const passwords = loadOrCreateRolePasswords(
    settings.files.secrets,
    Object.values(names).flatMap((roles) => [roles.owner, roles.runtime]),
  );
  await provisionServiceRoles({
    adminUrl: settings.databaseUrl,
    services: settings.services.map((service) => ({ service: service.name, schema: service.name })),
    passwords,
  });
  return Object.fromEntries(
    Object.entries(names).map(([service, roles]) => [
      service,
      {
        runtime: databaseUrlForRole(settings.databaseUrl, roles.runtime, passwords[roles.runtime]),
        owner: databaseUrlForRole(settings.databaseUrl, roles.owner, passwords[roles.owner]),
      },
    ]),
  );
}

module.exports = { provisionLocalDatabaseRoles, loadOrCreateRolePasswords };
