#!/usr/bin/env node
// Writes each workspace's tsconfig.json from its @pwa/* dependencies, so project references
// never drift from package.json. Run after adding a workspace or a @pwa dependency.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const workspaces = ['libs', 'services'].flatMap((dir) =>
  fs.readdirSync(path.join(root, dir)).map((name) => path.join(dir, name)).filter((p) => fs.existsSync(path.join(root, p, 'package.json'))),
);
const byName = new Map(workspaces.map((ws) => [require(path.join(root, ws, 'package.json')).name, ws]));
for (const ws of workspaces) {
  const pkg = require(path.join(root, ws, 'package.json'));
  const deps = Object.keys({ ...pkg.dependencies }).filter((d) => byName.has(d));
  const tsconfig = {
    extends: '../../tsconfig.base.json',
    compilerOptions: { composite: true, rootDir: 'src', outDir: 'dist', tsBuildInfoFile: 'dist/.tsbuildinfo' },
    include: ['src'],
    references: deps.map((d) => ({ path: path.relative(ws, byName.get(d)) })),
  };
  fs.writeFileSync(path.join(root, ws, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2) + '\n');
}
const build = { files: [], references: workspaces.map((ws) => ({ path: ws })) };
fs.writeFileSync(path.join(root, 'tsconfig.build.json'), JSON.stringify(build, null, 2) + '\n');
console.log(`tsconfigs written for ${workspaces.length} workspaces`);
