// Applies this service's migrations and exits: `node services/webhooks/dist/migrate.js` (the Helm chart's migration Job).
import { migrateOnlyThenEnd } from '@pwa/runtime';
import { webhooksMigrationDirectories, webhooksSchema } from './service-paths';

migrateOnlyThenEnd({ service: 'webhooks', schema: webhooksSchema, migrationDirectories: webhooksMigrationDirectories }, process.env);
