// Applies this service's migrations and exits: `node services/disbursements/dist/migrate.js` (the Helm chart's migration Job).
import { migrateOnlyThenEnd } from '@pwa/runtime';
import { disbursementsMigrationDirectories, disbursementsSchema } from './service-paths';

migrateOnlyThenEnd({ service: 'disbursements', schema: disbursementsSchema, migrationDirectories: disbursementsMigrationDirectories }, process.env);
