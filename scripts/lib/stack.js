// What the local stack is made of: each process's entry file and environment, derived from the
// settings. npm start, npm run operator and the gateway benchmark all build environments here, so
// the three agree on every variable.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { perProcessVariables, repoRoot } = require('./settings');

function entryOf(serviceName) {
  return path.join(repoRoot, 'services', serviceName, 'dist', 'main.js');
}

/** Entries that `npm run build` should have produced but did not. */
function missingEntries(serviceNames) {
  return serviceNames.map(entryOf).filter((entry) => !fs.existsSync(entry));
}

/**
 * The environment every child shares: the caller's environment (so OTEL_*, TOKEN_*, RATE_LIMIT_*
 * and the like pass through) without the per-process variables and the encryption key, plus the
 * server URLs from the settings.
 */
function sharedEnvironment(settings, env = process.env) {
  const shared = { ...env };
  for (const name of [...perProcessVariables, 'AUTH_KEY_ENCRYPTION_KEY', 'WEBHOOK_SECRET_SEALING_KEY', 'MIGRATION_DATABASE_URL']) delete shared[name];
  return {
    ...shared,
    ENVIRONMENT: settings.environment,
    LOG_LEVEL: settings.logLevel,
    DATABASE_URL: settings.databaseUrl,
    AMQP_URL: settings.amqpUrl,
    REDIS_URL: settings.redisUrl,
  };
}

/** Every service's URL by its variable (AUTH_URL, WALLET_URL, ...): services call each other by these. */
function serviceUrls(settings) {
  return Object.fromEntries(settings.services.map((service) => [service.urlVariable, service.url]));
}

/**
 * An internal service's environment. Only auth (and the operator CLI) receive the key encryption
 * key; only auth (which seals webhook signing secrets) and webhooks (which opens them to sign
 * deliveries) receive the webhook secret sealing key. A key that is not given is left out, so the
 * service refuses to start rather than run with a made-up one.
 */
function internalServiceEnvironment(settings, service, { authKeyEncryptionKey, webhookSecretSealingKey, serviceDatabaseUrls, env } = {}) {
  // With the services' own database roles (serviceDatabaseUrls, see databaseRoles.js), each service
  // runs as its runtime role and migrates as its owner role; without them, as DATABASE_URL.
  const database = serviceDatabaseUrls?.[service.name];
  return {
    ...sharedEnvironment(settings, env),
    ...serviceUrls(settings),
    ...(database ? { DATABASE_URL: database.runtime, MIGRATION_DATABASE_URL: database.owner } : {}),
    HOST: service.host,
    PORT: String(service.port),
    ...(service.name === 'auth' ? definedOnly({ AUTH_KEY_ENCRYPTION_KEY: authKeyEncryptionKey }) : {}),
    ...(service.name === 'auth' || service.name === 'webhooks'
      ? definedOnly({ WEBHOOK_SECRET_SEALING_KEY: webhookSecretSealingKey })
      : {}),
  };
}

function gatewayEnvironment(settings, { env } = {}) {
  return {
    ...sharedEnvironment(settings, env),
    HOST: settings.gateway.host,
    PORT: String(settings.gateway.port),
    ADMIN_PORT: String(settings.gateway.adminPort),
    TLS_CERT_FILE: settings.tls.certFile,
    TLS_KEY_FILE: settings.tls.keyFile,
    ...serviceUrls(settings),
  };
}

/** The operator CLI's environment: both keys (onboarding and rotate-webhook-secret seal new secrets) and the services' URLs. */
function operatorCliEnvironment(settings, { authKeyEncryptionKey, webhookSecretSealingKey, env } = {}) {
  return {
    ...sharedEnvironment(settings, env),
    // The CLIs ask services what they own (fund-partner checks the partner id with auth).
    ...serviceUrls(settings),
    AUTH_KEY_ENCRYPTION_KEY: authKeyEncryptionKey,
    ...definedOnly({ WEBHOOK_SECRET_SEALING_KEY: webhookSecretSealingKey }),
  };
}

/** The entries whose value is set (a child's environment must not carry the string "undefined"). */
function definedOnly(variables) {
  return Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== undefined));
}

module.exports = { entryOf, missingEntries, sharedEnvironment, internalServiceEnvironment, gatewayEnvironment, operatorCliEnvironment };
