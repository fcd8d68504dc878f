// A group of child processes that live and die together: each is started with its own
// environment; its output goes to a log file, to the console with a name prefix (no colour), or
// into memory (the e2e harness reads it back); the group is stopped as one (SIGTERM, then SIGKILL
// after a grace period). A child that exits while nobody asked it to is reported through
// onUnexpectedEnd.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';

const defaultStopGraceMs = 15_000;
const prefixWidth = 14;

export type ProcessOutput =
  /** One <name>.log per process in the directory, truncated at start. */
  | { kind: 'files'; directory: string }
  /** Prefixed lines on this process's stdout and stderr. */
  | { kind: 'console' }
  /** `[name] line` into `lines`, every process's in the order they come. */
  | { kind: 'memory'; lines: string[] };

export interface ProcessGroupOptions {
  output: ProcessOutput;
  stopGraceMs?: number;
  onUnexpectedEnd?: (record: ChildRecord) => void;
}

export interface StartOptions {
  /** Arguments after the entry. */
  args?: readonly string[];
  /** Node's own flags, before the entry (--cpu-prof, say). */
  nodeArgs?: readonly string[];
  /** Default: the entry's folder. */
  cwd?: string;
}

export interface ChildRecord {
  name: string;
  process: ChildProcess;
  logFile: string | undefined;
  /** Resolves when the process has exited. */
  exited: Promise<ChildRecord>;
  exitCode: number | null | undefined;
  exitSignal: NodeJS.Signals | null | undefined;
  spawnError: Error | undefined;
  /** Set when it was asked to stop or killed: its end is expected. */
  stopRequested: boolean;
}

export class ProcessGroup {
  readonly children: ChildRecord[] = [];
  private stopping = false;
  private readonly stopGraceMs: number;
  private readonly onUnexpectedEnd: (record: ChildRecord) => void;

  constructor(private readonly options: ProcessGroupOptions) {
    this.stopGraceMs = options.stopGraceMs ?? defaultStopGraceMs;
    this.onUnexpectedEnd = options.onUnexpectedEnd ?? (() => undefined);
  }

  /** Starts `node [...nodeArgs] <entry> [...args]` as a named child. */
  start(name: string, entry: string, env: NodeJS.ProcessEnv, { args = [], nodeArgs = [], cwd = path.dirname(entry) }: StartOptions = {}): ChildRecord {
    if (this.stopping) throw new Error(`cannot start ${name}: the group is stopping`);
    const { output } = this.options;
    let stdio: StdioOptions = ['ignore', 'pipe', 'pipe'];
    let logFile: string | undefined;
    let logDescriptor: number | undefined;
    if (output.kind === 'files') {
      fs.mkdirSync(output.directory, { recursive: true });
      logFile = path.join(output.directory, `${name}.log`);
      logDescriptor = fs.openSync(logFile, 'w');
      stdio = ['ignore', logDescriptor, logDescriptor];
    }
    const child = spawn(process.execPath, [...nodeArgs, entry, ...args], { env, stdio, cwd });
    if (logDescriptor !== undefined) fs.closeSync(logDescriptor);
    let resolveExited: (record: ChildRecord) => void = () => undefined;
    const record: ChildRecord = {
      name,
      process: child,
      logFile,
      exited: new Promise((resolve) => (resolveExited = resolve)),
      exitCode: undefined,
      exitSignal: undefined,
      spawnError: undefined,
      stopRequested: false,
    };
    child.once('exit', (code, signal) => {
      record.exitCode = code;
      record.exitSignal = signal;
      resolveExited(record);
      if (!this.stopping && !record.stopRequested) this.onUnexpectedEnd(record);
    });
    child.once('error', (error) => {
      // spawn itself failed (no node binary, say); 'exit' may never come, so report here.
      record.exitCode = -1;
      record.spawnError = error;
      resolveExited(record);
      if (!this.stopping && !record.stopRequested) this.onUnexpectedEnd(record);
    });
    if (output.kind === 'console') {
      copyLines(child.stdout, (line) => writeLine(process.stdout, `${name.padEnd(prefixWidth)}| ${line}`));
      copyLines(child.stderr, (line) => writeLine(process.stderr, `${name.padEnd(prefixWidth)}| ${line}`));
    } else if (output.kind === 'memory') {
      copyLines(child.stdout, (line) => output.lines.push(`[${name}] ${line}`));
      copyLines(child.stderr, (line) => output.lines.push(`[${name}] ${line}`));
    }
    this.children.push(record);
    return record;
  }

  isRunning(record: ChildRecord): boolean {
    return record.exitCode === undefined && record.exitSignal === undefined;
  }

  /** The running children of that name. */
  running(name: string): ChildRecord[] {
    return this.children.filter((record) => record.name === name && this.isRunning(record));
  }

  /** Stops one child: SIGTERM, then SIGKILL after the grace period. Its end is not reported as unexpected. */
  async stop(record: ChildRecord): Promise<void> {
    record.stopRequested = true;
    if (!this.isRunning(record)) return;
    record.process.kill('SIGTERM');
    const killTimer = setTimeout(() => record.process.kill('SIGKILL'), this.stopGraceMs);
    await record.exited;
    clearTimeout(killTimer);
  }

  /** Kills one child with SIGKILL (no shutdown hooks run: a crash) and waits until it is gone. */
  async kill(record: ChildRecord): Promise<void> {
    record.stopRequested = true;
    if (!this.isRunning(record)) return;
    record.process.kill('SIGKILL');
    await record.exited;
  }

  /** Stops every child still running, the last started first (the gateway stops taking traffic before what it calls). */
  async stopAll(): Promise<ChildRecord[]> {
    this.stopping = true;
    const running = this.children.filter((record) => this.isRunning(record));
    for (const record of [...running].reverse()) {
      record.stopRequested = true;
      record.process.kill('SIGTERM');
    }
    const killTimer = setTimeout(() => {
      for (const record of running) if (this.isRunning(record)) record.process.kill('SIGKILL');
    }, this.stopGraceMs);
    await Promise.all(running.map((record) => record.exited));
    clearTimeout(killTimer);
    return running;
  }

  /** Kills every child at once (second Ctrl-C, or the parent is going away). */
  killAll(): void {
    this.stopping = true;
    for (const record of this.children) if (this.isRunning(record)) record.process.kill('SIGKILL');
  }

  /** The last lines a child wrote (from its log file, or from memory). */
  tail(record: ChildRecord, lineCount = 20): string[] {
    const { output } = this.options;
    if (output.kind === 'memory') return output.lines.filter((line) => line.startsWith(`[${record.name}] `)).slice(-lineCount);
    return tailOfFile(record.logFile, lineCount);
  }
}

function copyLines(input: Readable | null, write: (line: string) => void): void {
  if (input === null) return;
  readline.createInterface({ input, crlfDelay: Infinity }).on('line', write);
}

function writeLine(output: Writable, line: string): void {
  output.write(`${line}\n`);
}

/** The last lines of a log file, for the message that says its process died. */
export function tailOfFile(file: string | undefined, lineCount = 20): string[] {
  if (!file || !fs.existsSync(file)) return [];
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.length > 0);
  return lines.slice(-lineCount);
}

export function describeEnding(record: ChildRecord): string {
  if (record.spawnError) return `could not be started (${record.spawnError.message})`;
  if (record.exitSignal) return `was killed by ${record.exitSignal}`;
  return `exited with code ${String(record.exitCode)}`;
}
