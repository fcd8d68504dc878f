// The repository's root, for paths the scripts open (services' builds, .local/, the reference).
import fs from 'node:fs';
import path from 'node:path';

/**
 * The first folder above `start` holding tsconfig.build.json. The scripts run compiled
 * (scripts/dist/lib) and, inside the e2e harness under Jest, from source (scripts/lib), so the
 * depth differs.
 */
function findRepoRoot(start: string): string {
  let directory = start;
  for (let depth = 0; depth < 5; depth += 1) {
    if (fs.existsSync(path.join(directory, 'tsconfig.build.json'))) return directory;
    directory = path.dirname(directory);
  }
  throw new Error(`no tsconfig.build.json above ${start}`);
}

export const repoRoot = findRepoRoot(__dirname);
