import path from 'node:path';

/**
 * The outbox, inbox (processed_events) and outbox-parking migrations every service applies to its
 * own schema, beside its own migrations (libs/db migrate reads both folders as one list). The
 * folder sits next to src/ and dist/, so this resolves alike from the sources and the build.
 */
export const busMigrationsDirectory = path.join(__dirname, '..', 'migrations');
