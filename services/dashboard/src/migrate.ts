// Applies this service's migrations and exits: `node services/dashboard/dist/migrate.js` (the Helm chart's migration Job).
import { migrateOnlyThenEnd } from '@pwa/runtime';
import { dashboardMigrationDirectories, dashboardSchema } from './service-paths';

migrateOnlyThenEnd({ service: 'dashboard', schema: dashboardSchema, migrationDirectories: dashboardMigrationDirectories }, process.env);
