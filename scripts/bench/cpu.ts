// CPU time of the processes a benchmark drives, read from /proc (Linux), so a round can say how
// many CPU milliseconds each process spent per request. On a 2-core machine throughput is about
// 2 CPU-seconds divided by the CPU one request costs in all processes together, so this is where
// the difference between two figures is explained. Elsewhere (no /proc) it reports nothing.
import fs from 'node:fs';
import type { Pool } from 'pg';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** User plus system CPU seconds of a process, or undefined when it cannot be read. */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; the fields after its closing parenthesis are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/**
 * Postgres backends serving one database, by pid, found through pg_stat_activity. Only meaningful
 * when Postgres runs on this machine (the pids are then readable in /proc).
 */
export async function databaseBackendPids(pool: Pool, databaseName: string): Promise<number[]> {
  const result = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [databaseName]);
  return result.rows.map((row) => row.pid);
}

export type CpuSeconds = Record<string, number>;

export interface CpuMeter {
  start(): Promise<void>;
  /** CPU seconds per group since start(). */
  stop(): Promise<CpuSeconds>;
}

/**
 * A CPU meter over named groups of pids. `groups()` is asked at both ends (backends come and go):
 * a pid seen only at the end counts from zero; one gone by the end is left out (pooled
 * connections outlive a round).
 */
export function cpuMeter(groups: () => Promise<Record<string, readonly number[]>>): CpuMeter {
  let before: Record<string, Map<number, number>> = {};
  const read = async (): Promise<Record<string, Map<number, number>>> => {
    const snapshot: Record<string, Map<number, number>> = {};
    for (const [name, pids] of Object.entries(await groups())) {
      const seconds = new Map<number, number>();
      for (const pid of pids) {
        const value = processCpuSeconds(pid);
        if (value !== undefined) seconds.set(pid, value);
      }
      snapshot[name] = seconds;
    }
    return snapshot;
  };
  return {
    start: async () => {
      before = await read();
    },
    stop: async () => {
      const after = await read();
      const spent: CpuSeconds = {};
      for (const [name, pids] of Object.entries(after)) {
        const earlier = before[name] ?? new Map<number, number>();
        let seconds = 0;
        for (const [pid, value] of pids) seconds += value - (earlier.get(pid) ?? 0);
        if (pids.size > 0 || earlier.size > 0) spent[name] = seconds;
      }
      return spent;
    },
  };
}

/**
 * CPU milliseconds per unit of work (a quote, a flow), per group, over some rounds, with the total;
 * groups under 0.005 ms are left out.
 */
export function cpuMsPer(results: readonly { cpuSeconds: CpuSeconds }[], units: number): Record<string, number> {
  const perGroup: Record<string, number> = {};
  for (const result of results) {
    for (const [name, seconds] of Object.entries(result.cpuSeconds)) perGroup[name] = (perGroup[name] ?? 0) + seconds;
  }
  const rows = units > 0 ? Object.entries(perGroup).map(([name, seconds]): [string, number] => [name, (seconds * 1000) / units]).filter(([, ms]) => ms >= 0.005) : [];
  return { ...Object.fromEntries(rows), total: rows.reduce((sum, [, ms]) => sum + ms, 0) };
}

/** The sum of a meter's reading over every group. */
export function totalSeconds(seconds: CpuSeconds): number {
  return Object.values(seconds).reduce((sum, value) => sum + value, 0);
}

/**
 * Busy CPU seconds of the whole machine (all cores, every process) from /proc/stat, or undefined.
 * Next to the per-process figures it shows how much of the machine other work took during a round
 * (on a shared machine: someone else's tests), which moves every figure, the reference's too.
 */
export function machineBusySeconds(): number | undefined {
  try {
    const fields = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) / ticksPerSecond;
  } catch {
    return undefined;
  }
}
