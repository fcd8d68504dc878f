import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * sdk/src/generated/openapi.ts is what openapi-typescript makes of docs/openapi.json; it must not
 * drift from the document (run `npm run sdk:types` after `npm run openapi`).
 */
const repoRoot = path.resolve(__dirname, '../../..');
const committedPath = path.join(repoRoot, 'sdk/src/generated/openapi.ts');

describe('the generated types', () => {
  test('when openapi-typescript runs on docs/openapi.json now, then it writes exactly the committed sdk/src/generated/openapi.ts (run `npm run sdk:types`)', () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'sdk-types-'));
    try {
      const output = path.join(directory, 'openapi.ts');
      const cli = path.join(repoRoot, 'node_modules/openapi-typescript/bin/cli.js');
      execFileSync(process.execPath, [cli, 'docs/openapi.json', '-o', output], { cwd: repoRoot, stdio: 'pipe', timeout: 60_000 });
      expect(readFileSync(committedPath, 'utf8')).toBe(readFileSync(output, 'utf8'));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
