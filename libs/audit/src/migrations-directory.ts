import path from 'node:path';

/**
 * The audit_log migration a service applies to its own schema, beside its own migrations and the
 * bus's (libs/db migrate reads the folders as one list). The folder sits next to src/ and dist/,
 * so this resolves alike from the sources and the build.
 */
export const auditMigrationsDirectory = path.join(__dirname, '..', 'migrations');
