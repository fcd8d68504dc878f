// Applies this service's migrations and exits: `node services/backoffice/dist/migrate.js` (the Helm chart's migration Job).
import { migrateOnlyThenEnd } from '@pwa/runtime';
import { backofficeMigrationDirectories, backofficeSchema } from './service-paths';

migrateOnlyThenEnd({ service: 'backoffice', schema: backofficeSchema, migrationDirectories: backofficeMigrationDirectories }, process.env);
