// Runs the shared reference flow (../shared/bench/reference-flow/run.sh) and returns its one JSON
// line. Its figure is this machine's throughput for the minimal quote + transfer flow at this
// moment; our figures are quoted next to it (and as ratios to it) so runs on a noisy shared machine
// can be compared.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { repoRoot } = require('../lib/settings');

function referenceScript(env = process.env) {
  const directory = path.resolve(repoRoot, env.BENCH_REFERENCE_DIR || '../shared/bench/reference-flow');
  return path.join(directory, 'run.sh');
}

function referenceAvailable(env = process.env) {
  return fs.existsSync(referenceScript(env));
}

/**
 * Resolves the parsed JSON line ({ flows_per_s, req_p50_ms, req_p99_ms, non2xx, errors, ... }).
 * Its progress lines (stderr) are passed through with a prefix.
 */
function runReference({ connections, durationSeconds, env = process.env }) {
  const script = referenceScript(env);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script, String(connections), String(durationSeconds)], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    readline.createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`  reference | ${line}\n`));
    child.once('error', reject);
    child.once('close', (code) => {
      const line = stdout.trim().split('\n').pop() || '';
      let parsed;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = undefined;
      }
      if (code !== 0 || !parsed || typeof parsed.flows_per_s !== 'number') {
        reject(new Error(`reference flow failed (exit ${code}); output: ${stdout.trim().slice(0, 500) || '(none)'}`));
        return;
      }
      resolve(parsed);
    });
  });
}

/** A reference result is valid only when every request succeeded (its README says so). */
function referenceIsValid(result) {
  return result.non2xx === 0 && result.errors === 0;
}

module.exports = { runReference, referenceAvailable, referenceScript, referenceIsValid };
