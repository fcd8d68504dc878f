// One operator CLI process that runs many commands: `<cli> batch` (runOperatorCli of @pwa/runtime)
// reads one JSON array of arguments per line and answers one JSON line each, in order. A script
// that seeds many rows pays for one process start and one migration check instead of one per
// command; each command still runs through the CLI's own parsing and code.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { asRecord, parseJson } from './http';
import { cliEntryFor, cliEntryOf, type OperatorResult, type OperatorService } from './operator-cli';
import { repoRoot } from './repo-root';

interface Waiting {
  args: readonly string[];
  resolve: (result: OperatorResult) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

const commandTimeoutMs = 30_000;

/** True when args[0] is a command of the service's CLI (a batch of that CLI can run it). */
export function isCommandOf(service: OperatorService, args: readonly string[]): boolean {
  return cliEntryFor(args[0]) === cliEntryOf(service);
}

export class OperatorBatch {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: Waiting[] = [];
  private stdoutBuffer = '';
  private stderr = '';
  private readonly ended: Promise<void>;
  private readonly timeoutMs: number;
  private failure: Error | undefined;

  /** Starts `<service CLI> batch` with env (the CLI's settings, as for one command). */
  constructor(
    readonly service: OperatorService,
    env: NodeJS.ProcessEnv,
    { cwd = repoRoot, timeoutMs = commandTimeoutMs }: { cwd?: string; timeoutMs?: number } = {},
  ) {
    const entry = cliEntryOf(service);
    if (!fs.existsSync(entry)) throw new Error(`${path.relative(repoRoot, entry)} is missing; run npm run build`);
    this.timeoutMs = timeoutMs;
    this.child = spawn(process.execPath, [entry, 'batch', '--json'], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.read(chunk.toString('utf8')));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.child.stdin.on('error', () => undefined); // a write after the child died: its close handler rejects the waiting command
    this.ended = new Promise((resolve) => {
      this.child.once('error', (error) => this.failAll(error));
      this.child.once('close', (exitCode) => {
        this.failAll(new Error(`the ${service} operator batch ended (exit ${String(exitCode)}): ${this.stderr.trim().slice(-2000)}`));
        resolve();
      });
    });
  }

  /** Runs one command; resolves what runOperatorCli would for it (the answer line as stdout). */
  run(args: readonly string[]): Promise<OperatorResult> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.failAll(new Error(`operator ${args.join(' ')} did not answer within ${this.timeoutMs} ms`));
        this.child.kill('SIGKILL');
      }, this.timeoutMs);
      this.waiting.push({ args, resolve, reject, timer });
      this.child.stdin.write(`${JSON.stringify(args)}\n`);
    });
  }

  /** Ends stdin and waits until the process has closed its context and exited. */
  async close(): Promise<void> {
    this.child.stdin.end();
    await this.ended;
  }

  private read(text: string): void {
    this.stdoutBuffer += text;
    let newline = this.stdoutBuffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.stdoutBuffer.slice(0, newline);
      this.stdoutBuffer = this.stdoutBuffer.slice(newline + 1);
      this.answer(line);
      newline = this.stdoutBuffer.indexOf('\n');
    }
  }

  private answer(line: string): void {
    const next = this.waiting.shift();
    if (!next) return;
    clearTimeout(next.timer);
    const answer = asRecord(parseJson(line));
    if (answer === undefined || typeof answer.exitCode !== 'number') {
      next.reject(new Error(`operator ${next.args.join(' ')}: the batch answered a line that is not an answer: ${line.slice(0, 500)}`));
      return;
    }
    next.resolve({ exitCode: answer.exitCode, json: answer.output, stdout: `${JSON.stringify(answer.output)}\n`, stderr: this.stderr });
  }

  private failAll(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.waiting.splice(0)) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
  }
}
