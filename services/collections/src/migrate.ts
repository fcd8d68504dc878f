// Applies this service's migrations and exits: `node services/collections/dist/migrate.js` (the Helm chart's migration Job).
import { migrateOnlyThenEnd } from '@pwa/runtime';
import { collectionsMigrationDirectories, collectionsSchema } from './service-paths';

migrateOnlyThenEnd({ service: 'collections', schema: collectionsSchema, migrationDirectories: collectionsMigrationDirectories }, process.env);
