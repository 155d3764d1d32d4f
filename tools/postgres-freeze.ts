import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

export interface FrozenPostgres {
  /** How many processes were stopped: the postmaster and every child it had. */
  readonly stopped: number;
  /** SIGCONT to all of them, children first. */
  thaw(): void;
}

/**
 * Freezes a running PostgreSQL server (one that startPostgres ran from the machine's binaries) as a
 * hung host would: SIGSTOP to the postmaster, so it accepts no new session, then to every backend
 * and helper process it forked. Connections stay open and queries sent on them get no answer.
 * The postmaster is found as the parent of a backend that a short session reports.
 */
export async function freezePostgres(url: string): Promise<FrozenPostgres> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let postmaster: number | undefined;
  try {
    const backend = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
    // Read while the session lives: its backend exits when it ends.
    postmaster = parentOf(backend);
  } finally {
    await client.end();
  }
  if (postmaster === undefined) throw new Error('no parent process found for a PostgreSQL backend');
  process.kill(postmaster, 'SIGSTOP');
  const children = childrenOf(postmaster);
  for (const pid of children) process.kill(pid, 'SIGSTOP');
  const stoppedPostmaster = postmaster;
  return {
    stopped: children.length + 1,
    thaw() {
      for (const pid of children) tryKill(pid, 'SIGCONT');
      tryKill(stoppedPostmaster, 'SIGCONT');
    },
  };
}

/** The parent pid from /proc/<pid>/stat (field 4, after the parenthesised command name). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => parentOf(pid) === parent);
}

function tryKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already: nothing to thaw.
  }
}
