import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * docs/openapi.json is linted by Redocly CLI with its recommended rules (redocly.yaml at the root):
 * structure, operation ids, security, parameters, examples valid against their schemas, unused
 * components, ambiguous paths. Errors fail; warnings are listed in the failure message.
 */
const root = path.resolve(__dirname, '../../../..');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

test('when Redocly lints docs/openapi.json with the recommended rules, then it reports no errors', () => {
  const run = spawnSync(path.join(root, 'node_modules/.bin/redocly'), ['lint', 'docs/openapi.json', '--format=json'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    // No usage telemetry, no update check: the lint runs offline.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: LintProblem[] };
  const listed = report.problems.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`);

  expect({ errors: report.totals.errors, problems: listed }).toEqual({ errors: 0, problems: listed.filter((line) => !line.startsWith('error')) });
  expect(run.status).toBe(0);
}, 60_000);
