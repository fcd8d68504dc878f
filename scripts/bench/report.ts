// What every benchmark's report shares: progress on stderr, the table and the JSON line on stdout,
// rounding, and the shared reference flow run beside our figures (reference.ts).
import os from 'node:os';
import { configurationFields, type ConfigurationFields } from './configuration';
import { format } from './measure';
import type { BenchOptions } from './options';
import { referenceAvailable, referenceIsValid, referenceScript, runReference, type ReferenceResult } from './reference';

export const log = (line: string): void => void process.stderr.write(`${line}\n`);
export const out = (line = ''): void => void process.stdout.write(`${line}\n`);

/** The machine, as every summary names it. */
export function machine(): { node: string; cpus: number; cpu_model: string | undefined } {
  return { node: process.version, cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model };
}

/** How a load benchmark (gateway, quote) ran, as its JSON line says after its name; their stacks leave webhooks out. */
export function loadRunFields(options: BenchOptions): { node: string; cpus: number; connections: number; duration_s: number; rounds: number; latency_connections: number; configuration: ConfigurationFields } {
  const { node, cpus } = machine();
  return {
    node,
    cpus,
    connections: options.connections,
    duration_s: options.durationSeconds,
    rounds: options.rounds,
    latency_connections: options.latencyConnections,
    ...configurationFields(options.configuration, { webhooks: 'not started' }),
  };
}

/** Whether every request of both scenarios, to every target, answered 2xx without an error. */
export function everyAnswered<Target extends string>(measured: Record<'load' | 'latency', Record<Target, { non2xx: number; errors: number }>>, targets: readonly Target[]): boolean {
  return (['load', 'latency'] as const).every((scenario) => targets.every((target) => measured[scenario][target].non2xx === 0 && measured[scenario][target].errors === 0));
}

/** A table row: the first cell `firstWidth` wide, the others `width`. */
export function row(cells: readonly (string | number)[], firstWidth: number, width: number): void {
  out(cells.map((cell, index) => String(cell).padEnd(index === 0 ? firstWidth : width)).join(''));
}

export function round(value: number | null | undefined, digits = 3): number | null {
  return typeof value === 'number' ? Number(value.toFixed(digits)) : null;
}

export function roundAll(values: Record<string, number>): Record<string, number | null> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, round(value, 2)]));
}

/** "gateway 4.1, wallet 3.8, ... = 23.5": CPU ms per unit, the largest first, and the total. */
export function describeCpu(values: Record<string, number | null>): string {
  const parts = Object.entries(values)
    .filter(([name]) => name !== 'total')
    .sort((left, right) => (right[1] ?? 0) - (left[1] ?? 0));
  return `${parts.map(([name, ms]) => `${name} ${format(ms)}`).join(', ')} = ${format(values.total)}`;
}

/** One run of the reference, unless --no-reference or it is missing (then undefined). */
export async function referenceRun(options: BenchOptions, label: string): Promise<ReferenceResult | undefined> {
  if (!options.reference) return undefined;
  if (!referenceAvailable()) {
    log(`reference flow not found at ${referenceScript()}; continuing without it (ratios omitted)`);
    return undefined;
  }
  log(`reference flow (${label}): ${options.connections} connections, ${options.durationSeconds} s`);
  const result = await runReference({ connections: options.connections, durationSeconds: options.durationSeconds });
  log(`  reference ${label}: ${result.flows_per_s} flows/s, p50 ${result.req_p50_ms} ms, p99 ${result.req_p99_ms} ms${referenceIsValid(result) ? '' : ' (INVALID: non-2xx or errors)'}`);
  return result;
}

export interface ReferenceSummary {
  flowsPerSecond: number;
  runs: number[];
  p50Ms: number;
  p99Ms: number;
}

/** The means of the valid reference runs among runs; undefined when there is none. */
export function referenceSummary(runs: readonly (ReferenceResult | undefined)[]): ReferenceSummary | undefined {
  const valid = runs.filter((run): run is ReferenceResult => run !== undefined && referenceIsValid(run));
  if (valid.length === 0) return undefined;
  const meanOf = (pick: (run: ReferenceResult) => number): number => valid.reduce((sum, run) => sum + pick(run), 0) / valid.length;
  return {
    flowsPerSecond: meanOf((run) => run.flows_per_s),
    runs: valid.map((run) => run.flows_per_s),
    p50Ms: meanOf((run) => run.req_p50_ms),
    p99Ms: meanOf((run) => run.req_p99_ms),
  };
}

/** The reference's part of a summary: its mean flows/s and each run's. */
export function referenceFields(reference: ReferenceSummary | undefined): { reference_flows_per_s: number | null; reference_runs: number[] } {
  return { reference_flows_per_s: reference ? round(reference.flowsPerSecond, 0) : null, reference_runs: reference ? reference.runs : [] };
}

/** a - b, or null when either is missing. */
export function minus(a: number | null | undefined, b: number | null | undefined): number | null {
  return typeof a === 'number' && typeof b === 'number' ? a - b : null;
}

/** a / b, or null when either is missing. */
export function over(a: number | null | undefined, b: number | null | undefined): number | null {
  return typeof a === 'number' && typeof b === 'number' ? a / b : null;
}
