import path from 'node:path';
import { auditMigrationsDirectory } from '@pwa/audit';

export const backofficeSchema = 'backoffice';
/** This service's own migrations (it publishes no events yet, so no outbox). */
export const backofficeMigrationDirectories: readonly string[] = [path.join(__dirname, '..', 'migrations'), auditMigrationsDirectory];
