import { readFileSync } from 'node:fs';

/** Linux reports CPU time in clock ticks; USER_HZ is 100 on every mainstream kernel build. */
const TICK_MS = 10;

/** Resident set size of a process in MB, from /proc/<pid>/status (VmRSS). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** User + system CPU time a process has used, in ms (10 ms resolution), from /proc/<pid>/stat. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** CPU time of this (the harness) process in ms. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Busy CPU time of the whole machine (all cores, all processes) in ms, from /proc/stat. */
export function machineCpuMs(): number {
  const [, ...jiffies] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = jiffies;
  return (user + nice + system + irq + softirq + steal) * TICK_MS;
}

export interface CpuShares {
  /** Each in cores busy on average over the interval (1 = one core fully busy). */
  bot: number;
  harness: number;
  /** Everything else on the machine: other people's work competing for the same cores. */
  others: number;
}

/** Starts measuring; call the result to get the CPU shares since then. */
export function measureCpu(botPid: number): () => CpuShares {
  const start = { at: performance.now(), bot: cpuMs(botPid), harness: ownCpuMs(), machine: machineCpuMs() };
  return () => {
    const wall = performance.now() - start.at;
    let bot = Number.NaN;
    try {
      bot = (cpuMs(botPid) - start.bot) / wall;
    } catch {
      // The bot process is gone (it crashed): its share is unknown.
    }
    const harness = (ownCpuMs() - start.harness) / wall;
    const machine = (machineCpuMs() - start.machine) / wall;
    // Without the bot's share (it died) the rest cannot be told apart from it.
    return { bot, harness, others: Number.isNaN(bot) ? Number.NaN : Math.max(0, machine - harness - bot) };
  };
}

export const percentOfCore = (share: number): string => `${Number.isNaN(share) ? '?' : (share * 100).toFixed(0)}%`;
