import path from 'node:path';

export const collectionsSchema = 'collections';
export const collectionsMigrationsDirectory = path.join(__dirname, '..', 'migrations');
