// Applies this service's migrations and exits: `node services/disbursements/dist/migrate.js` (the Helm chart's migration Job).
import { migrateOnlyAndExit } from '@pwa/runtime';
import { disbursementsMigrationsDirectory, disbursementsSchema } from './service-paths';

migrateOnlyAndExit({ service: 'disbursements', schema: disbursementsSchema, migrationsDirectory: disbursementsMigrationsDirectory }, process.env);
