// Applies this service's migrations and exits: `node services/quotes/dist/migrate.js` (the Helm chart's migration Job).
import { migrateOnlyThenEnd } from '@pwa/runtime';
import { quotesMigrationDirectories, quotesSchema } from './service-paths';

migrateOnlyThenEnd({ service: 'quotes', schema: quotesSchema, migrationDirectories: quotesMigrationDirectories }, process.env);
