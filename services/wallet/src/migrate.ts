// Applies this service's migrations and exits: `node services/wallet/dist/migrate.js` (the Helm chart's migration Job).
import { migrateOnlyThenEnd } from '@pwa/runtime';
import { walletMigrationDirectories, walletSchema } from './service-paths';

migrateOnlyThenEnd({ service: 'wallet', schema: walletSchema, migrationDirectories: walletMigrationDirectories }, process.env);
