// Applies this service's migrations and exits: `node services/webhooks/dist/migrate.js` (the Helm chart's migration Job).
import path from 'node:path';
import { migrateOnlyThenEnd } from '@pwa/runtime';

migrateOnlyThenEnd({ service: 'webhooks', schema: 'webhooks', migrationsDirectory: path.join(__dirname, '..', 'migrations') }, process.env);
