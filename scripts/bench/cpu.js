// CPU time of the processes a benchmark drives, read from /proc (Linux), so a round can say how
// many CPU milliseconds each process spent per request. On a 2-core machine throughput is about
// 2 CPU-seconds divided by the CPU one request costs in all processes together, so this is where
// the difference between two figures is explained. Elsewhere (no /proc) it reports nothing.
'use strict';
const fs = require('node:fs');

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** User plus system CPU seconds of a process, or undefined when it cannot be read. */
function processCpuSeconds(pid) {
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
async function databaseBackendPids(pool, databaseName) {
  const result = await pool.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [databaseName]);
  return result.rows.map((row) => row.pid);
}

/**
 * A CPU meter over named groups of pids: start() then stop() returns { name: cpuSeconds } for the
 * interval. `groups()` is asked at both ends (backends come and go): a pid seen only at the end
 * counts from zero; one gone by the end is left out (pooled connections outlive a round).
 */
function cpuMeter(groups) {
  let before;
  const read = async () => {
    const snapshot = {};
    for (const [name, pids] of Object.entries(await groups())) {
      snapshot[name] = new Map(pids.map((pid) => [pid, processCpuSeconds(pid)]).filter(([, seconds]) => seconds !== undefined));
    }
    return snapshot;
  };
  return {
    start: async () => {
      before = await read();
    },
    stop: async () => {
      const after = await read();
      const spent = {};
      for (const [name, pids] of Object.entries(after)) {
        const earlier = before[name] || new Map();
        let seconds = 0;
        for (const [pid, value] of pids) seconds += value - (earlier.get(pid) ?? 0);
        if (pids.size > 0 || earlier.size > 0) spent[name] = seconds;
      }
      return spent;
    },
  };
}

/**
 * Busy CPU seconds of the whole machine (all cores, every process) from /proc/stat, or undefined.
 * Next to the per-process figures it shows how much of the machine other work took during a round
 * (on a shared machine: someone else's tests), which moves every figure, the reference's too.
 */
function machineBusySeconds() {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields;
    return (user + nice + system + irq + softirq + (steal || 0)) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

module.exports = { processCpuSeconds, databaseBackendPids, cpuMeter, machineBusySeconds };
