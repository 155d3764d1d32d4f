import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pollUntil } from './poll-until.js';

/** Where the docs' examples send traffic: WEBHOOK_PORT=8080, DASHBOARD_PORT=8090 and INTERACTIONS_PORT=8070, as docs/webhooks.md sets them. */
const DOCS_UPSTREAM_PORTS = { 8080: 'receiver', 8090: 'dashboard', 8070: 'interactions' } as const;

export interface ProxyPorts {
  /** Where the proxy listens, on 127.0.0.1. */
  proxy: number;
  receiver: number;
  dashboard: number;
  interactions: number;
}

export interface RunningProxy {
  /** `http://127.0.0.1:<port>`: the docs' `https://bot.example.com`. */
  base: string;
  close(): Promise<void>;
}

export type ProxyName = 'caddy' | 'nginx';

export const onPath = (binary: string): boolean => spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;

/** Each `127.0.0.1:<docs port>` pointed at the bot's own port; a port the docs never set is a mistake in them. */
function toUpstreams(snippet: string, ports: ProxyPorts): string {
  return snippet.replace(/127\.0\.0\.1:(\d+)/g, (_all, port: string) => {
    const role = DOCS_UPSTREAM_PORTS[Number(port) as keyof typeof DOCS_UPSTREAM_PORTS];
    if (role === undefined) throw new Error(`the snippet sends to 127.0.0.1:${port}, a port the docs do not set`);
    return `127.0.0.1:${ports[role]}`;
  });
}

function replaceOnce(text: string, from: RegExp, to: string, what: string): string {
  if (!from.test(text)) throw new Error(`the snippet has no ${what}`);
  return text.replace(from, to);
}

/** Caddy serving `snippet` with only its host and ports changed; the global options in front keep it off the internet. */
function caddyConfig(snippet: string, ports: ProxyPorts): string {
  const site = replaceOnce(
    toUpstreams(snippet, ports),
    /^bot\.example\.com\b/m,
    `http://127.0.0.1:${ports.proxy}`,
    'bot.example.com block',
  );
  // No admin endpoint (port 2019 is shared by every Caddy on the machine), no certificates, loopback only.
  const global = '{\n\tadmin off\n\tauto_https off\n\tdefault_bind 127.0.0.1\n}\n\n';
  return global + site;
}

/** The snippet as a file in nginx's `http { }`, the way sites-enabled is included, and its wrapper. */
function nginxConfig(snippet: string, ports: ProxyPorts, dir: string): { site: string; main: string } {
  let site = replaceOnce(
    toUpstreams(snippet, ports),
    /^(\s*)listen 80;$/m,
    `$1listen 127.0.0.1:${ports.proxy};`,
    '"listen 80;"',
  );
  site = replaceOnce(site, /^(\s*)server_name bot\.example\.com;$/m, '$1server_name 127.0.0.1;', 'server_name');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `\t${kind}_temp_path ${dir}/${kind};`)
    .join('\n');
  const main = `worker_processes 1;
error_log ${dir}/error.log notice;
events { worker_connections 64; }
http {
\taccess_log ${dir}/access.log;
${temp}
\tinclude ${dir}/site.conf;
}
`;
  return { site, main };
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Writes the proxy's configuration into `dir`: the command line that serves it. */
function configure(name: ProxyName, snippet: string, ports: ProxyPorts, dir: string): [string, string[]] {
  if (name === 'caddy') {
    writeFileSync(path.join(dir, 'Caddyfile'), caddyConfig(snippet, ports));
    return ['caddy', ['run', '--config', path.join(dir, 'Caddyfile'), '--adapter', 'caddyfile']];
  }
  const { site, main } = nginxConfig(snippet, ports, dir);
  writeFileSync(path.join(dir, 'site.conf'), site);
  writeFileSync(path.join(dir, 'nginx.conf'), main);
  const startLog = path.join(dir, 'error.log');
  return [
    'nginx',
    ['-p', dir, '-e', startLog, '-c', path.join(dir, 'nginx.conf'), '-g', `daemon off; pid ${dir}/nginx.pid;`],
  ];
}

/** Starts Debian's caddy or nginx on `snippet` as a child process, resolved once its port takes connections. */
export async function startDocsProxy(name: ProxyName, snippet: string, ports: ProxyPorts): Promise<RunningProxy> {
  const dir = mkdtempSync(path.join(tmpdir(), `docs-${name}-`));
  // nginx's workers run as nobody under root and keep their temp files in here.
  chmodSync(dir, 0o755);
  let command: string;
  let args: string[];
  try {
    [command, args] = configure(name, snippet, ports, dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  // HOME and XDG in the temp folder: Caddy keeps its data and autosaved config there, not in the user's.
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.once('error', (error) => (stderr += `${error.message}\n`));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let exited = false;
  void closed.then(() => (exited = true));
  const errorLog = () => {
    try {
      return readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const close = async () => {
    if (!exited) child.kill('SIGTERM');
    await closed;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await pollUntil(
      async () => {
        if (exited) throw new Error(`${name} exited at start: ${stderr}${errorLog()}`);
        return accepts(ports.proxy);
      },
      `${name} listening on 127.0.0.1:${ports.proxy}`,
      { everyMs: 20 },
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { base: `http://127.0.0.1:${ports.proxy}`, close };
}
