// Checks the Dockerfile without a Docker engine (none on this machine, and no hadolint): it is
// parsed into instructions per stage, and the test checks what the build promises. Dependencies are
// a cached layer (the lockfile and every workspace's package.json are copied, npm ci runs, and only
// then the sources), the image is the one image of every service (no SERVICE argument), and it runs
// as the fixed uid/gid the chart's securityContext sets.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { chartDirectory, repoRoot } from '../support/helm-chart';

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}
interface Stage {
  name: string;
  instructions: Instruction[];
}

/** Instructions (continuation lines joined, comments dropped) grouped by FROM. */
function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const logical: Instruction[] = [];
  let pending: { text: string; line: number } | undefined;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    if (!pending && (trimmed === '' || trimmed.startsWith('#'))) return;
    if (pending && trimmed.startsWith('#')) return; // a comment inside a continued instruction
    const continued = trimmed.endsWith('\\');
    const part = continued ? trimmed.slice(0, -1).trim() : trimmed;
    pending = pending ? { text: `${pending.text} ${part}`, line: pending.line } : { text: part, line: index + 1 };
    if (!continued) {
      const [keyword, ...rest] = pending.text.split(/\s+/);
      logical.push({ keyword: keyword!.toUpperCase(), args: rest.join(' '), line: pending.line });
      pending = undefined;
    }
  });
  for (const instruction of logical) {
    if (instruction.keyword === 'FROM') {
      const alias = /\bAS\s+(\S+)$/i.exec(instruction.args);
      stages.push({ name: alias ? alias[1]! : `stage${stages.length}`, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1]!.instructions.push(instruction);
    }
  }
  return stages;
}

const dockerfile = readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8');
const stages = parseDockerfile(dockerfile);
const stage = (name: string): Stage => {
  const found = stages.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`the Dockerfile has no stage ${name}`);
  return found;
};
const indexOf = (instructions: Instruction[], test: (instruction: Instruction) => boolean) => instructions.findIndex(test);

/** Every workspace directory of the root package.json (libs/*, services/*, sdk), from the package.json files on disk. */
function workspaceDirectories(): string[] {
  const { workspaces } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] };
  return workspaces
    .flatMap((pattern) => {
      if (!pattern.endsWith('/*')) return [pattern];
      const parent = pattern.slice(0, -'/*'.length);
      return readdirSync(path.join(repoRoot, parent)).map((name) => `${parent}/${name}`);
    })
    .filter((directory) => existsSync(path.join(repoRoot, directory, 'package.json')))
    .sort();
}

describe('Dockerfile', () => {
  const build = stage('build').instructions;
  const npmCi = indexOf(build, (instruction) => instruction.keyword === 'RUN' && /\bnpm ci\b/.test(instruction.args));
  const copySources = indexOf(build, (instruction) => instruction.keyword === 'COPY' && /^\.\s+\.$/.test(instruction.args.trim()));

  it('when parsed, then it has a build stage, a backup stage and a runtime stage, the runtime stage last (the default target)', () => {
    expect(stages.map((candidate) => candidate.name)).toEqual(['build', 'backup', 'runtime']);
  });

  it('when the backup stage is read, then it adds PostgreSQL’s client programs to the same code and runs as the same fixed uid/gid, after everything that writes', () => {
    const backup = stage('backup').instructions;
    const install = backup.find((instruction) => instruction.keyword === 'RUN' && /apt-get install/.test(instruction.args));
    expect(install?.args).toContain('${POSTGRESQL_CLIENT}');
    expect(backup.find((instruction) => instruction.keyword === 'ARG')?.args).toBe('POSTGRESQL_CLIENT=postgresql-client');
    expect(install?.args).toMatch(/useradd .*--uid 10001 .*--gid 10001\b/);
    const copy = backup.find((instruction) => instruction.keyword === 'COPY');
    expect(copy?.args).toBe(stage('runtime').instructions.find((instruction) => instruction.keyword === 'COPY')?.args);
    const users = backup.filter((instruction) => instruction.keyword === 'USER');
    expect(users.map((instruction) => instruction.args)).toEqual(['10001:10001']);
    const lastWrite = Math.max(...backup.map((instruction, index) => (['RUN', 'COPY', 'ADD'].includes(instruction.keyword) ? index : -1)));
    expect(backup.indexOf(users[0]!)).toBeGreaterThan(lastWrite);
  });

  it('when the build stage installs dependencies, then npm ci runs after copying only the lockfile and every workspace’s package.json, and before the sources are copied', () => {
    expect(npmCi).toBeGreaterThanOrEqual(0);
    expect(copySources).toBeGreaterThan(npmCi);
    const copiedBefore = build
      .slice(0, npmCi)
      .filter((instruction) => instruction.keyword === 'COPY')
      .flatMap((instruction) => instruction.args.split(/\s+/).slice(0, -1));
    expect(copiedBefore).toEqual(expect.arrayContaining(['package.json', 'package-lock.json']));
    // Nothing but manifests before npm ci: a source change must not invalidate the dependency layer.
    expect(copiedBefore.filter((source) => !/(^|\/)package(-lock)?\.json$/.test(source))).toEqual([]);
    const workspaces = workspaceDirectories();
    expect(workspaces.length).toBeGreaterThanOrEqual(10);
    expect(copiedBefore.filter((source) => source !== 'package.json' && source !== 'package-lock.json').map((source) => path.dirname(source)).sort()).toEqual(workspaces);
    // Each manifest lands in its own workspace directory.
    for (const instruction of build.slice(0, npmCi).filter((candidate) => candidate.keyword === 'COPY')) {
      const [source, destination] = instruction.args.split(/\s+/);
      if (source === 'package.json') continue;
      expect(destination!.replace(/\/$/, '')).toBe(path.dirname(source!));
    }
    expect(build[copySources + 1]?.args).toMatch(/npm run build/);
  });

  it('when .dockerignore is read, then it keeps the lockfile and the manifests in the context and leaves node_modules and dist out', () => {
    const ignored = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist']));
    for (const pattern of ignored) expect([pattern, /package(-lock)?\.json|^\*\.json$|^\*$/.test(pattern)]).toEqual([pattern, false]);
  });

  it('when the runtime stage is read, then it runs as the fixed numeric uid/gid of the chart’s securityContext, created with that uid, and takes no SERVICE argument', () => {
    const runtime = stage('runtime').instructions;
    const users = runtime.filter((instruction) => instruction.keyword === 'USER');
    expect(users).toHaveLength(1);
    const values = parseYaml(readFileSync(path.join(chartDirectory, 'values.yaml'), 'utf8')) as { podSecurityContext: { runAsUser: number; runAsGroup: number } };
    expect(users[0]!.args).toBe(`${values.podSecurityContext.runAsUser}:${values.podSecurityContext.runAsGroup}`);
    expect(users[0]!.args).toBe('10001:10001');
    const creation = runtime.find((instruction) => instruction.keyword === 'RUN' && /\buseradd\b/.test(instruction.args));
    expect(creation?.args).toMatch(/groupadd .*--gid 10001\b/);
    expect(creation?.args).toMatch(/useradd .*--uid 10001 .*--gid 10001\b/);
    // The code stays root-owned (read-only to the service) and USER comes after everything that writes.
    const lastWrite = Math.max(...runtime.map((instruction, index) => (['RUN', 'COPY', 'ADD'].includes(instruction.keyword) ? index : -1)));
    expect(runtime.indexOf(users[0]!)).toBeGreaterThan(lastWrite);
    expect(runtime.find((instruction) => instruction.keyword === 'COPY')?.args).toContain('--chown=root:root');
    expect(dockerfile).not.toMatch(/^\s*ARG\s+SERVICE\b/m);
    expect(runtime.filter((instruction) => instruction.keyword === 'ENTRYPOINT')).toEqual([]);
  });

  it('when the runtime stage is read, then it carries the compiled services, their migrations (libs/bus’s shared ones too) and production dependencies only', () => {
    const collect = build.find((instruction) => instruction.keyword === 'RUN' && instruction.args.includes('/out'));
    for (const part of ['node_modules', 'services/*/dist', 'services/*/migrations', 'libs/*/dist', 'libs/*/migrations']) expect(collect?.args).toContain(part);
    expect(build.find((instruction) => instruction.keyword === 'RUN' && /npm prune --omit=dev/.test(instruction.args))).toBeDefined();
  });
});
