import path from 'node:path';

export const walletSchema = 'wallet';
export const walletMigrationsDirectory = path.join(__dirname, '..', 'migrations');
