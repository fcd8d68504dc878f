import path from 'node:path';
import { busMigrationsDirectory } from '@pwa/bus';

export const disbursementsSchema = 'disbursements';
/** The migrations applied to this schema: the outbox and inbox ones every service shares (libs/bus), and this service's own. */
export const disbursementsMigrationDirectories: readonly string[] = [busMigrationsDirectory, path.join(__dirname, '..', 'migrations')];
