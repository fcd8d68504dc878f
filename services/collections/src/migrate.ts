// Applies this service's migrations and exits: `node services/collections/dist/migrate.js` (the Helm chart's migration Job).
import { migrateOnlyAndExit } from '@pwa/runtime';
import { collectionsMigrationsDirectory, collectionsSchema } from './service-paths';

migrateOnlyAndExit({ service: 'collections', schema: collectionsSchema, migrationsDirectory: collectionsMigrationsDirectory }, process.env);
