import { existsSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { SHARED_POSTGRES_ENV } from './postgres-setup.js';

const alive = (pid, signal = 0) => {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
};

/** Jest's globalTeardown: stops the run's shared PostgreSQL cluster, if a test started one, and removes its folder. */
export default function teardown() {
  return stopSharedPostgres(process.env[SHARED_POSTGRES_ENV]);
}

/**
 * Stops the cluster started in `dir` and removes the folder; nothing when there is none. Also called
 * by npm test once a stage has ended: a stage stopped early (a check failed) runs no teardown.
 */
export async function stopSharedPostgres(dir) {
  if (!dir) return;
  const file = path.join(dir, 'cluster.json');
  // SIGINT is PostgreSQL's "fast shutdown"; the postmaster is no child of this process, so its exit is polled.
  if (existsSync(file) && alive(JSON.parse(readFileSync(file, 'utf8')).pid, 'SIGINT')) {
    const { pid } = JSON.parse(readFileSync(file, 'utf8'));
    const deadline = Date.now() + 15_000;
    while (alive(pid) && Date.now() < deadline) await sleep(20);
  }
  rmSync(dir, { recursive: true, force: true });
}
