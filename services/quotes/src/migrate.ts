// Applies this service's migrations and exits: `node services/quotes/dist/migrate.js` (the Helm chart's migration Job).
import { migrateOnlyAndExit } from '@pwa/runtime';
import { quotesMigrationsDirectory, quotesSchema } from './service-paths';

migrateOnlyAndExit({ service: 'quotes', schema: quotesSchema, migrationsDirectory: quotesMigrationsDirectory }, process.env);
