import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openApiDocumentText } from './openapi';

/**
 * `npm run openapi`: writes the generated document to the file given (docs/openapi.json), the
 * file the unit test compares with the generator and redocly lints.
 */
function main(argv: readonly string[]): void {
  const target = argv[0];
  if (target === undefined) throw new Error('usage: node libs/contracts/dist/public/write-openapi.js <file>');
  writeFileSync(resolve(target), openApiDocumentText());
  process.stdout.write(`wrote ${target}\n`);
}

main(process.argv.slice(2));
