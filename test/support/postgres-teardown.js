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
export default async function teardown() {
  const dir = process.env[SHARED_POSTGRES_ENV];
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
