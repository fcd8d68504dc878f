#!/usr/bin/env node
// Checks the production dependencies' licences in the SBOM against scripts/licence-policy.json.
//
//   node scripts/check-licences.js [artifacts/sbom.cdx.json]
//
// `npm run sbom` writes the SBOM (CycloneDX 1.6 JSON, from the lockfile, without dev dependencies);
// .ci/run runs both before the tests. Exit 1 names every component the policy refuses.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { componentsOf, licenceProblems } = require('./lib/licence-check');

/** The exit status: 0 when every licence is allowed, 1 naming the refused ones, 2 without a readable SBOM. */
function checkLicences(sbomFile) {
  const policy = JSON.parse(fs.readFileSync(path.join(__dirname, 'licence-policy.json'), 'utf8'));
  let sbom;
  try {
    sbom = JSON.parse(fs.readFileSync(sbomFile, 'utf8'));
  } catch (error) {
    console.error(`licences: cannot read the SBOM ${sbomFile} (${error.message}): run npm run sbom first`);
    return 2;
  }
  const problems = licenceProblems(sbom, policy);
  if (problems.length > 0) {
    console.error(`licences: ${problems.length} production ${problems.length === 1 ? 'dependency is' : 'dependencies are'} refused:\n  ${problems.join('\n  ')}`);
    return 1;
  }
  console.log(`licences: ${componentsOf(sbom).length} components of ${path.relative(process.cwd(), sbomFile)}, every licence allowed`);
  return 0;
}

process.exitCode = checkLicences(path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'artifacts', 'sbom.cdx.json')));
