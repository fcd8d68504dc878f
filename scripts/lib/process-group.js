// A group of child processes that live and die together: each is started with its own
// environment, its output goes to a log file or to the console with a name prefix (no colour), and
// the group is stopped as one (SIGTERM, then SIGKILL after a grace period). A child that exits while
// the group is not stopping is reported through onUnexpectedEnd.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');

const stopGraceMs = 15_000;

class ProcessGroup {
  /**
   * @param {{ logOutput: 'files' | 'console', logDirectory?: string, onUnexpectedEnd?: (child: object) => void }} options
   */
  constructor(options) {
    this.logOutput = options.logOutput;
    this.logDirectory = options.logDirectory;
    this.onUnexpectedEnd = options.onUnexpectedEnd ?? (() => undefined);
    this.children = [];
    this.stopping = false;
    this.prefixWidth = 14;
  }

  /**
   * Starts `node <entry> [...args]` as a named child. Returns the child record
   * ({ name, process, exited, logFile, exitCode, exitSignal }).
   */
  start(name, entry, env, { args = [], cwd = path.dirname(entry) } = {}) {
    if (this.stopping) throw new Error(`cannot start ${name}: the group is stopping`);
    const stdio = ['ignore', 'pipe', 'pipe'];
    let logFile;
    let logDescriptor;
    if (this.logOutput === 'files') {
      fs.mkdirSync(this.logDirectory, { recursive: true });
      logFile = path.join(this.logDirectory, `${name}.log`);
      logDescriptor = fs.openSync(logFile, 'w');
      stdio[1] = logDescriptor;
      stdio[2] = logDescriptor;
    }
    const child = spawn(process.execPath, [entry, ...args], { env, stdio, cwd });
    if (logDescriptor !== undefined) fs.closeSync(logDescriptor);
    const record = { name, process: child, logFile, exitCode: undefined, exitSignal: undefined };
    record.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        record.exitCode = code;
        record.exitSignal = signal;
        resolve(record);
        if (!this.stopping) this.onUnexpectedEnd(record);
      });
    });
    child.once('error', (error) => {
      // spawn itself failed (no node binary, say); 'exit' may never come, so report here.
      record.exitCode = -1;
      record.spawnError = error;
      if (!this.stopping) this.onUnexpectedEnd(record);
    });
    if (this.logOutput === 'console') {
      this.prefixLines(name, child.stdout, process.stdout);
      this.prefixLines(name, child.stderr, process.stderr);
    }
    this.children.push(record);
    return record;
  }

  prefixLines(name, input, output) {
    const prefix = `${name.padEnd(this.prefixWidth)}| `;
    readline.createInterface({ input, crlfDelay: Infinity }).on('line', (line) => output.write(`${prefix}${line}\n`));
  }

  isRunning(record) {
    return record.exitCode === undefined && record.exitSignal === undefined;
  }

  /** Stops every child still running: SIGTERM, then SIGKILL after the grace period. */
  async stopAll() {
    this.stopping = true;
    const running = this.children.filter((record) => this.isRunning(record));
    // Stop in reverse start order, so the gateway stops taking traffic before what it calls.
    for (const record of [...running].reverse()) record.process.kill('SIGTERM');
    const killTimer = setTimeout(() => {
      for (const record of running) if (this.isRunning(record)) record.process.kill('SIGKILL');
    }, stopGraceMs);
    await Promise.all(running.map((record) => record.exited));
    clearTimeout(killTimer);
    return running;
  }

  /** Kills every child at once (second Ctrl-C, or the parent is going away). */
  killAll() {
    this.stopping = true;
    for (const record of this.children) if (this.isRunning(record)) record.process.kill('SIGKILL');
  }
}

/** The last lines of a child's log file, for the message that says it died. */
function tailOfFile(file, lineCount = 20) {
  if (!file || !fs.existsSync(file)) return [];
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.length > 0);
  return lines.slice(-lineCount);
}

function describeEnding(record) {
  if (record.spawnError) return `could not be started (${record.spawnError.message})`;
  if (record.exitSignal) return `was killed by ${record.exitSignal}`;
  return `exited with code ${record.exitCode}`;
}

module.exports = { ProcessGroup, tailOfFile, describeEnding };
