import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  accessSync,
  chownSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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
 * Where the test run keeps its one shared cluster: npm test or Jest's global setup sets it, and
 * tools/shared-postgres.js (plain JS, under the same name) stops the cluster; the first test that asks starts it.
 */
export const SHARED_POSTGRES_ENV = 'TEST_POSTGRES_SHARED_DIR';

export interface PostgresOptions {
  /**
   * A cluster of this test's own, not the run's shared one: for a test that stops, freezes or
   * restarts the server (its `outage`, freezePostgres), which would hit every other test on it.
   */
  own?: boolean;
}

/**
 * A real PostgreSQL for the store's tests: the machine's initdb/postgres in a temp dir on a free
 * loopback port when they are installed, else PGlite through its socket server. Inside a test run,
 * one cluster serves every test (each gets fresh databases) unless `own` asks for one of its own:
 * an initdb and a server start cost about two seconds. Stopped by `stop` (the shared one: its
 * databases dropped).
 */
export async function startPostgres(options: PostgresOptions = {}): Promise<TestPostgres> {
  const initdb = onPath('initdb');
  const postgres = onPath('postgres');
  if (!initdb || !postgres) return startPglite();
  const shared = process.env[SHARED_POSTGRES_ENV];
  if (shared && !options.own) return sharedServer(shared, initdb, postgres);
  return startServer(initdb, postgres);
}

interface SharedCluster {
  url: string;
  /** The postmaster, which the run's teardown stops. */
  pid: number;
}

/** The run's shared cluster: the first to take the folder's lock starts it, the others wait for its file. */
async function sharedServer(dir: string, initdb: string, postgresBin: string): Promise<TestPostgres> {
  const file = path.join(dir, 'cluster.json');
  let taken = false;
  try {
    mkdirSync(path.join(dir, 'lock'));
    taken = true;
  } catch {
    // Another test holds the lock: it is starting the cluster.
  }
  if (taken) {
    const cluster = await initCluster(initdb, dir);
    const { server } = await runServer(postgresBin, cluster, { detached: true });
    if (server.pid === undefined) throw new Error('the shared PostgreSQL did not start');
    // Written whole, then renamed: a waiting test that saw the file half written read no JSON.
    writeFileSync(`${file}.part`, JSON.stringify({ url: cluster.url, pid: server.pid } satisfies SharedCluster));
    renameSync(`${file}.part`, file);
  }
  // No event crosses processes here: the file is looked for every 20 ms until the starter writes it.
  const deadline = Date.now() + 30_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the shared PostgreSQL in ${dir} did not start within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const { url } = JSON.parse(readFileSync(file, 'utf8')) as SharedCluster;
  const created: string[] = [];
  return {
    url,
    kind: 'postgres',
    async createDatabase() {
      const made = await createDatabase(url);
      created.push(new URL(made).pathname.slice(1));
      return made;
    },
    async stop() {
      await dropDatabases(url, created);
    },
  };
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

interface Cluster {
  dir: string;
  data: string;
  port: number;
  url: string;
  user: { uid: number; gid: number } | undefined;
}

async function initCluster(initdb: string, dir: string): Promise<Cluster> {
  const user = serverUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const init = spawnSync(initdb, ['-D', data, '-U', 'bot', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
    ...user,
    encoding: 'utf8',
  });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await closedPort();
  return { dir, data, port, url: `postgres://bot@127.0.0.1:${port}/postgres`, user };
}

/**
 * Starts the server of `cluster`. A detached one (the run's shared cluster) outlives the test worker
 * that started it, so it writes its log to a file rather than to a pipe that worker holds.
 */
async function runServer(
  postgresBin: string,
  { dir, data, port, url, user }: Cluster,
  { detached = false } = {},
): Promise<{ server: ChildProcess; exited: Promise<void> }> {
  const logFile = detached ? openSync(path.join(dir, 'postgres.log'), 'a') : undefined;
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
      // Every test worker's bots and pools on one server: PostgreSQL's default of 100 is too few.
      ...(detached ? ['-c', 'max_connections=1000'] : []),
      ...statsArgs(),
    ],
    { ...user, detached, stdio: ['ignore', 'ignore', logFile ?? 'pipe'] },
  );
  if (logFile !== undefined) {
    closeSync(logFile);
    server.unref();
  }
  let log = '';
  server.stderr?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const why = () => (logFile === undefined ? log : readFileSync(path.join(dir, 'postgres.log'), 'utf8'));
  await waitForConnection(url, () => (server.exitCode !== null ? `postgres exited: ${why()}` : undefined));
  return { server, exited };
}

async function startServer(initdb: string, postgresBin: string): Promise<TestPostgres> {
  const cluster = await initCluster(initdb, mkdtempSync(path.join(tmpdir(), 'bot-pg-')));
  const { dir, url } = cluster;
  let running: { server: ChildProcess; exited: Promise<void> } | undefined = await runServer(postgresBin, cluster);
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
        running ??= await runServer(postgresBin, cluster);
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

/** Drops a test's databases from the shared cluster, ending any session still on them. */
async function dropDatabases(url: string, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
