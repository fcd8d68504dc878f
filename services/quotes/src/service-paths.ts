import path from 'node:path';

export const quotesSchema = 'quotes';
export const quotesMigrationsDirectory = path.join(__dirname, '..', 'migrations');
