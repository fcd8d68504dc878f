import path from 'node:path';

export const disbursementsSchema = 'disbursements';
export const disbursementsMigrationsDirectory = path.join(__dirname, '..', 'migrations');
