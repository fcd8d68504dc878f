// Writes each workspace's tsconfig.json from its @pwa/* dependencies, so project references never
// drift from package.json, and tsconfig.build.json with every workspace and the scripts' project.
// Run after adding a workspace or a @pwa dependency: npm run build && node scripts/dist/sync-tsconfigs.js
import fs from 'node:fs';
import path from 'node:path';
import { asRecord } from './lib/http';
import { repoRoot } from './lib/repo-root';

function packageOf(workspace: string): { name: string; dependencies: string[] } {
  const json = asRecord(JSON.parse(fs.readFileSync(path.join(repoRoot, workspace, 'package.json'), 'utf8'))) ?? {};
  return { name: String(json.name), dependencies: Object.keys(asRecord(json.dependencies) ?? {}) };
}

const workspaces = ['libs', 'services'].flatMap((directory) =>
  fs
    .readdirSync(path.join(repoRoot, directory))
    .map((name) => path.join(directory, name))
    .filter((workspace) => fs.existsSync(path.join(repoRoot, workspace, 'package.json'))),
);
const byName = new Map(workspaces.map((workspace) => [packageOf(workspace).name, workspace]));
for (const workspace of workspaces) {
  const references = packageOf(workspace)
    .dependencies.map((dependency) => byName.get(dependency))
    .filter((target): target is string => target !== undefined)
    .map((target) => ({ path: path.relative(workspace, target) }));
  const tsconfig = {
    extends: '../../tsconfig.base.json',
    compilerOptions: { composite: true, rootDir: 'src', outDir: 'dist', tsBuildInfoFile: 'dist/.tsbuildinfo' },
    include: ['src'],
    references,
  };
  fs.writeFileSync(path.join(repoRoot, workspace, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
}
// The scripts' project (scripts/tsconfig.json, written by hand) is built last, after what it uses.
const build = { files: [], references: [...workspaces, 'scripts'].map((workspace) => ({ path: workspace })) };
fs.writeFileSync(path.join(repoRoot, 'tsconfig.build.json'), `${JSON.stringify(build, null, 2)}\n`);
process.stdout.write(`tsconfigs written for ${workspaces.length} workspaces\n`);
