/* `npm run playground`: a local Discord and the service sandbox for the real bot to run against,
 * and `npm run playground -- send …` to act in it. See docs/playground.md. */
import { EXIT_USAGE, readCommandLine } from '../../src/core/cli-args.js';
import { CAST } from './cast.js';
import { LIST_SITE_IDS } from '../../src/lists/index.js';
import path from 'node:path';
import { checkEnvFile, EnvFileError, startLine } from './env-file.js';
import { MAX_SERVERS, type PlaygroundServer } from './servers.js';

const DEFAULTS = {
  sandbox: 8787,
  discord: 8788,
  control: 8789,
  webhook: 8790,
  dashboard: 8791,
  interactions: 8792,
  envFile: '.env.playground',
};

const USAGE = `Usage: npm run playground [-- options]
       npm run playground -- send <what> [--server N] [--http] [--control-port N]

Starts a local Discord stand-in and the votes & reviews sandbox on 127.0.0.1, seeded with a server,
members, votes and reviews, and writes the settings that point the bot at them to .env.playground
(never to .env). Then, in a second terminal: DOTENV_CONFIG_PATH=.env.playground npm start
No Discord account or token is needed. Ctrl+C stops it and removes the file and the bot's store.

send asks the running playground to act and prints what the bot answers or posts:
  send /vote member:bob               a member's slash command (as:maya picks who types it;
  send /remind on as:dan              default alice; members: alice, bob, carol, maya, dan)
  send /leaderboard
  send webhook vote member:bob        a delivery as Guilds sends it, then the bot's post
  send webhook vote site:topgg member:bob   as another list sends it, signed or authorized as it
                                      does (site: ${LIST_SITE_IDS.join(', ')})
  send webhook review member:dan rating:4 content:"Quick and fair"
  send press "Paste the secret" secret:K  presses a button on the bot's last answer, fills its form
  send api vote member:bob            asks the vote API, as another bot would (api votes: the ledger)
  send /setup credentials api_key:K app_id:A --server 2   fills the form the command answers with
  send /setup channel kind:votes target:#general         channels by #name, roles by @name
  send --http /vote member:bob        over the Interactions Endpoint, as Discord sends it when one is set:
                                      start it with INTERACTIONS_PORT=${DEFAULTS.interactions} npm run interactions
Exit codes: 0 started or answered, 1 not started or not answered, 2 a wrong command line.

Options:
  --discord-port N   the Discord stand-in (default ${DEFAULTS.discord}; 0 picks a free port)
  --sandbox-port N   the votes & reviews sandbox (default ${DEFAULTS.sandbox}; 0 picks a free port)
  --webhook-port N   the bot's webhook receiver, written to the file (default ${DEFAULTS.webhook}; 0 picks one)
  --control-port N   where send reaches the playground (default ${DEFAULTS.control}; 0 picks a free port)
  --env-out PATH     the settings file to write (default ${DEFAULTS.envFile})
  --servers N        1 (default): one server, set up by the file; 2 to ${MAX_SERVERS}: many-server mode, each
                     server set up with /setup (the file holds a SECRETS_KEY made for the session)
  --dashboard        the bot also serves the dashboard (port ${DEFAULTS.dashboard}), signed in to as Maya
  --dashboard-port N the dashboard's port (implies --dashboard; 0 picks a free port)
  --server N         (send) the server to act in: its number or id (default 1)
  --http             (send) through the Interactions Endpoint, not the gateway
  --interactions-port N  (send --http) the endpoint's port (default ${DEFAULTS.interactions})
  -h, --help         show this text (starts nothing, writes nothing)
`;

const FLAGS = {
  'discord-port': { type: 'string' },
  'sandbox-port': { type: 'string' },
  'webhook-port': { type: 'string' },
  'control-port': { type: 'string' },
  // Not --env-file: Node 20 reads that flag even after the script's name, and exits 9 on a new file.
  'env-out': { type: 'string' },
  servers: { type: 'string' },
  server: { type: 'string' },
  dashboard: { type: 'boolean' },
  'dashboard-port': { type: 'string' },
  http: { type: 'boolean' },
  'interactions-port': { type: 'string' },
} as const;

function usageError(message: string): void {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exitCode = EXIT_USAGE;
}

/** A port flag's value; undefined (after saying why) when it is not one. */
function port(flag: string, value: string | undefined, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (/^\d+$/.test(value) && n <= 65_535) return n;
  usageError(`--${flag} must be a port number (0-65535), got "${value}".`);
  return undefined;
}

async function send(words: string[], controlPort: number): Promise<number> {
  const url = `http://127.0.0.1:${controlPort}/send`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ words }),
      // The playground waits up to 10 s for the bot; this leaves it time to say so.
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    process.stderr.write(
      `No playground answers at 127.0.0.1:${controlPort}. Start it with npm run playground ` +
        `(or give send the --control-port it uses).\n`,
    );
    return 1;
  }
  const text = await response.text();
  if (response.ok) {
    process.stdout.write(text);
    return 0;
  }
  process.stderr.write(text);
  return response.status === 400 ? EXIT_USAGE : 1;
}

/** --servers: how many servers the stand-in has; undefined (after saying why) when not 1 to MAX_SERVERS. */
function serverCount(value: string | undefined): number | undefined {
  if (value === undefined) return 1;
  const n = Number(value);
  if (/^\d+$/.test(value) && n >= 1 && n <= MAX_SERVERS) return n;
  usageError(`--servers takes 1 to ${MAX_SERVERS}, got "${value}".`);
  return undefined;
}

type Values = Partial<Record<Exclude<keyof typeof FLAGS, 'dashboard' | 'http'>, string>> & {
  dashboard?: boolean;
  http?: boolean;
};

async function serve(values: Values): Promise<void> {
  if (values.server !== undefined) return usageError('--server is for send; to start several servers, use --servers.');
  if (values.http || values['interactions-port'] !== undefined)
    return usageError('--http and --interactions-port are for send: the endpoint is npm run interactions.');
  const withDashboard = values.dashboard === true || values['dashboard-port'] !== undefined;
  const dashboardPort = withDashboard
    ? port('dashboard-port', values['dashboard-port'], DEFAULTS.dashboard)
    : undefined;
  if (withDashboard && dashboardPort === undefined) return;
  const servers = serverCount(values.servers);
  if (servers === undefined) return;
  const ports = {
    discordPort: port('discord-port', values['discord-port'], DEFAULTS.discord),
    sandboxPort: port('sandbox-port', values['sandbox-port'], DEFAULTS.sandbox),
    webhookPort: port('webhook-port', values['webhook-port'], DEFAULTS.webhook),
    controlPort: port('control-port', values['control-port'], DEFAULTS.control),
  };
  if (Object.values(ports).some((p) => p === undefined)) return;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    // Refused before the stand-ins and the sandbox are even loaded: nothing to start or undo.
    checkEnvFile(path.resolve(envFile(values)));
  } catch (error) {
    process.stderr.write(`The playground did not start: ${(error as Error).message}\n`);
    process.exitCode = error instanceof EnvFileError ? EXIT_USAGE : 1;
    return;
  }
  let playground;
  try {
    // Imported here: send, a short-lived second process, needs none of what it starts.
    const { startPlayground } = await import('./playground.js');
    playground = await startPlayground({
      ...(ports as Record<keyof typeof ports, number>),
      envFile: envFile(values),
      servers,
      ...(dashboardPort === undefined ? {} : { dashboardPort }),
      say,
    });
  } catch (error) {
    process.stderr.write(`The playground did not start: ${(error as Error).message}\n`);
    process.exitCode = error instanceof EnvFileError ? EXIT_USAGE : 1;
    return;
  }
  const { discord, sandbox, settings, controlUrl, webhookUrl, dashboardUrl } = playground;
  if (playground.servers.length > 1) {
    say(manyServerWalk(playground.servers, discord.apiUrl, sandbox.baseUrl, controlUrl, envFile(values), dashboardUrl));
    return stopOnSignal(playground.close, say);
  }
  const file = envFile(values);
  const sendFlag = controlUrl.endsWith(`:${DEFAULTS.control}`) ? '' : ` --control-port ${new URL(controlUrl).port}`;
  say(`vote-review-bot playground

  Discord stand-in  ${discord.apiUrl} (gateway ${discord.gatewayUrl}), server "Stand-in Guild", #general
  Service sandbox   ${sandbox.baseUrl}
  Control           ${controlUrl}/send
  Settings written  ${file} (made-up token and keys; the store is a temporary file)${dashboardLine(dashboardUrl)}

Members:
${CAST.map((p) => `  ${p.name.toLowerCase().padEnd(6)} ${p.id}  ${p.role}`).join('\n')}

1. In a second terminal, start the real bot against it:
     ${startLine(file)}
2. In a third, act as a member, or as Guilds:
     npm run playground -- send /vote member:alice${sendFlag}
     npm run playground -- send /review member:carol as:maya${sendFlag}
     npm run playground -- send webhook vote member:bob${sendFlag}
     npm run playground -- send api vote member:bob${sendFlag}
   or with curl:
     curl -s --data '/leaderboard' ${controlUrl}/send
     curl -s -H 'Authorization: ${settings.WEBHOOK_TOKEN}' -H 'content-type: application/json' \\
       --data '{"event":"review","guildId":"${discord.guildId}","id":"rev_curl1","authorId":"${CAST[4]!.id}","content":"Hi","rating":5}' \\
       ${webhookUrl}
${httpSteps(file, sendFlag)}${dashboardUrl ? `\n4. Open ${dashboardUrl} and sign in: you are Maya, with Manage Server.\n` : ''}
Ctrl+C stops the playground and removes ${file}.
`);
  stopOnSignal(playground.close, say);
}

/** The dashboard's line among the addresses, when the bot serves one. */
function dashboardLine(url: string | undefined): string {
  return url ? `\n  Dashboard         ${url} (sign in: the stand-in signs you in as Maya)` : '';
}

/** How to try the Interactions Endpoint: start it against the same file, then send --http. */
function httpSteps(file: string, flag: string): string {
  const port = DEFAULTS.interactions;
  return `3. Commands over HTTP, as Discord sends them to an Interactions Endpoint URL: in a fourth terminal
     ${startLine(file, `INTERACTIONS_PORT=${port} npm run interactions`)}
     npm run playground -- send --http /vote member:bob${flag}
`;
}

function envFile(values: Values): string {
  return values['env-out'] ?? DEFAULTS.envFile;
}

/** What many-server mode prints: the servers with what their owners would type, and the walk of docs/playground.md. */
function manyServerWalk(
  servers: readonly PlaygroundServer[],
  apiUrl: string,
  serviceUrl: string,
  controlUrl: string,
  file: string,
  dashboardUrl: string | undefined,
): string {
  const port = new URL(controlUrl).port;
  const flag = port === String(DEFAULTS.control) ? '' : ` --control-port ${port}`;
  const send = (line: string) => `     npm run playground -- send ${line}${flag}`;
  const two = servers[1]!;
  return `vote-review-bot playground, many-server mode (${servers.length} servers)

  Discord stand-in  ${apiUrl}
  Service sandbox   ${serviceUrl}
  Control           ${controlUrl}/send
  Settings written  ${file} (no server in it: each is set up with /setup; a SECRETS_KEY made for this session)${dashboardLine(dashboardUrl)}

Servers (each has #general and the roles @Voter and @Moderator; Maya has Manage Server in each):
${servers.map((s) => `  ${s.n}  ${s.id}  "${s.name}"  api_key:${s.credentials.apiKey} app_id:${s.credentials.appId}`).join('\n')}

1. In a second terminal, start the real bot against it:
     ${startLine(file)}
2. In a third, set up server ${two.n} as its owner would (--server takes a number or an id; /setup is typed by Maya):
${send(`/setup credentials api_key:${two.credentials.apiKey} app_id:${two.credentials.appId} --server ${two.n}`)}
${send(`/setup channel kind:votes target:#general --server ${two.n}`)}
${send(`/setup webhook --server ${two.n}`)}
${send(`webhook vote member:bob --server ${two.n}`)}
3. Add its Top.gg listing: the answer gives the address and a button for the secret Top.gg makes
${send(`/setup listing add site:topgg --server ${two.n}`)}
${send(`press "Paste the secret" secret:${topggSecret(two)} --server ${two.n}`)}
${send(`webhook vote site:topgg member:carol --server ${two.n}`)}
${send(`/setup status --server ${two.n}`)}
${httpSteps(file, flag).replace(/^3\./, '4.').replace('member:bob', `member:bob --server ${two.n}`)}${dashboardUrl ? `\n5. Open ${dashboardUrl} and sign in: you are Maya, with Manage Server in each server.\n` : ''}
Ctrl+C stops the playground and removes ${file}.
`;
}

/** A made-up Top.gg webhook secret for a server: Top.gg's start `whs_`, and the playground signs with it. */
const topggSecret = (server: PlaygroundServer) => `whs_playground_${server.n}${server.n}${server.n}${server.n}`;

function stopOnSignal(close: () => Promise<void>, say: (line: string) => void): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    say(`\n${signal}: stopping the playground.`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`The playground did not stop cleanly: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(): Promise<void> {
  const line = readCommandLine(USAGE, FLAGS);
  if (!line) return;
  const [verb, ...words] = line.positionals;
  if (verb === 'send') {
    const takes = ['control-port', 'server', 'http', 'interactions-port'];
    const others = Object.keys(line.values).filter((flag) => !takes.includes(flag));
    if (others.length > 0)
      return usageError(
        `send takes only --server, --http, --interactions-port and --control-port, not --${others.join(', --')}.`,
      );
    const controlPort = port('control-port', line.values['control-port'], DEFAULTS.control);
    if (controlPort === undefined) return;
    const viaHttp = line.values.http === true || line.values['interactions-port'] !== undefined;
    const endpoint = viaHttp
      ? port('interactions-port', line.values['interactions-port'], DEFAULTS.interactions)
      : undefined;
    if (viaHttp && endpoint === undefined) return;
    // The playground reads server:N and http:PORT among the words (as curl sends them too).
    const server = line.values.server === undefined ? [] : [`server:${line.values.server}`];
    const http = endpoint === undefined ? [] : [`http:${endpoint}`];
    process.exitCode = await send([...words, ...server, ...http], controlPort);
    return;
  }
  if (verb !== undefined)
    return usageError(`Unexpected argument '${verb}': the one word the playground takes is send.`);
  await serve(line.values);
}

await main();
