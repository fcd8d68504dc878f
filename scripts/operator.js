#!/usr/bin/env node
// The stable entry of npm run operator (scripts/operator.ts, compiled by npm run build into
// scripts/dist/operator.js). It stays at this path, in plain JavaScript, because callers run it
// here (package.json, the backup-restore e2e test, the docs), built or not.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const compiled = path.join(__dirname, 'dist', 'operator.js');
if (!fs.existsSync(compiled)) {
  process.stderr.write('The operator CLI is not built (scripts/dist/operator.js is missing).\nBuild it first: npm run build   (npm start also builds)\n');
  process.exitCode = 1;
} else {
  require(compiled);
}
