import path from 'node:path';
import { auditMigrationsDirectory } from '@pwa/audit';

export const dashboardSchema = 'dashboard';
/** This service's own migrations (members, invitations, factors) and the partner audit log's. */
export const dashboardMigrationDirectories: readonly string[] = [path.join(__dirname, '..', 'migrations'), auditMigrationsDirectory];
