import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { closedPort } from './closed-port.js';

export interface TestPostgres {
  /** `postgres://…@127.0.0.1:PORT/postgres` */
  readonly url: string;
  /** What serves it: the machine's PostgreSQL, or PGlite behind its socket server. */
  readonly kind: 'postgres' | 'pglite';
  /** A fresh, empty database on the same server, for one test. */
  createDatabase(): Promise<string>;
  /**
   * Stops the server as a crash or an operator would (immediate shutdown, sessions cut), keeping its
   * data; `restart` starts it again on the same port. PGlite cannot: undefined there.
   */
  readonly outage?: { kill(): Promise<void>; restart(): Promise<void> };
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL for the store's tests: the machine's initdb/postgres in a temp dir on a free
 * loopback port when they are installed, else PGlite through its socket server. Stopped by `stop`.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const initdb = onPath('initdb');
  const postgres = onPath('postgres');
  if (initdb && postgres) return startServer(initdb, postgres);
  return startPglite();
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** PostgreSQL refuses to run as root: under root, run it as the `postgres` (or `nobody`) user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(':');
    if (fields) return { uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error('running as root and no postgres or nobody user to run PostgreSQL as');
}

/**
 * BENCH_PG_STATEMENTS=1 loads pg_stat_statements, for a bench to say which statements cost the
 * server its time (see topStatements in bench/scale/statements.ts).
 */
function statsArgs(): string[] {
  return process.env.BENCH_PG_STATEMENTS === '1' ? ['-c', 'shared_preload_libraries=pg_stat_statements'] : [];
}

async function startServer(initdb: string, postgresBin: string): Promise<TestPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-pg-'));
  const user = serverUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const init = spawnSync(initdb, ['-D', data, '-U', 'bot', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
    ...user,
    encoding: 'utf8',
  });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await closedPort();
  const url = `postgres://bot@127.0.0.1:${port}/postgres`;
  const run = async () => {
    const server: ChildProcess = spawn(
      postgresBin,
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        ...statsArgs(),
      ],
      { ...user, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    await waitForConnection(url, () => (server.exitCode !== null ? `postgres exited: ${log}` : undefined));
    return { server, exited };
  };
  let running: { server: ChildProcess; exited: Promise<void> } | undefined = await run();
  const halt = async (signal: NodeJS.Signals) => {
    running?.server.kill(signal);
    await running?.exited;
    running = undefined;
  };
  return {
    url,
    kind: 'postgres',
    createDatabase: () => createDatabase(url),
    outage: {
      // SIGQUIT is PostgreSQL's "immediate shutdown": as close to a crash as it offers.
      kill: () => halt('SIGQUIT'),
      async restart() {
        running ??= await run();
      },
    },
    async stop() {
      // SIGINT is PostgreSQL's "fast shutdown": sessions are ended, nothing is waited on.
      await halt('SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startPglite(): Promise<TestPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create();
  const port = await closedPort();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 8 });
  await server.start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    kind: 'pglite',
    // PGlite serves one database: a "fresh database" is an emptied public schema.
    async createDatabase() {
      await db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
      return url;
    },
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

async function waitForConnection(url: string, failed: () => string | undefined): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const problem = failed();
    if (problem) throw new Error(problem);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

let counter = 0;
async function createDatabase(url: string): Promise<string> {
  const name = `store_${process.pid}_${++counter}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}
