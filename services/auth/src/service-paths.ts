import path from 'node:path';

export const authSchema = 'auth';
export const authMigrationsDirectory = path.join(__dirname, '..', 'migrations');
