// The run's shared PostgreSQL cluster, as npm test's runner and Jest's teardown stop it. Plain JavaScript:
// the runner (tools/test-run.js) and Jest's global setup and teardown load it before anything is compiled.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';

/** The folder of the run's one cluster; tools/postgres.ts reads the same name. */
export const SHARED_POSTGRES_ENV = 'TEST_POSTGRES_SHARED_DIR';

const alive = (pid, signal = 0) => {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
};

/**
 * Stops the cluster started in `dir` and removes the folder; nothing when there is none. Jest's teardown
 * calls it, and so does npm test once a stage has ended: a stage stopped early (a check failed) runs no
 * teardown.
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
