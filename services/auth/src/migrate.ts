// Applies this service's migrations and exits: `node services/auth/dist/migrate.js` (the Helm chart's migration Job).
import { migrateOnlyThenEnd } from '@pwa/runtime';
import { authMigrationDirectories, authSchema } from './service-paths';

migrateOnlyThenEnd({ service: 'auth', schema: authSchema, migrationDirectories: authMigrationDirectories }, process.env);
