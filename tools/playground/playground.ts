import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCommands } from '../../src/bot/load-commands.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { startDiscordStandIn, type DiscordStandIn } from '../discord-standin/index.js';
import { closedPort } from '../closed-port.js';
import { CAST, maya } from './cast.js';
import { PLAYGROUND_API_KEY } from './api-request.js';
import { answerSend, type PlaygroundParts } from './control.js';
import { checkEnvFile, removeEnvFile, startLine, writeEnvFile } from './env-file.js';
import { splitWords } from './send-line.js';
import { playgroundServers, type PlaygroundServer } from './servers.js';
import { standInConnection } from '../world.js';
import { sampleSecrets } from '../list-senders/send.js';

export interface PlaygroundOptions {
  discordPort: number;
  sandboxPort: number;
  webhookPort: number;
  controlPort: number;
  envFile: string;
  /** 1: one server, set up by the settings file; more: many-server mode, each server set up with /setup. */
  servers: number;
  /** The dashboard's port (`--dashboard`), written for the bot to serve it; undefined: no dashboard. */
  dashboardPort?: number;
  /** Where the playground says what happens (the terminal). */
  say: (line: string) => void;
}

export interface Playground {
  discord: DiscordStandIn;
  sandbox: Sandbox;
  controlUrl: string;
  webhookUrl: string;
  servers: readonly PlaygroundServer[];
  /** Where the bot serves the dashboard (`--dashboard`), signed in to as Maya. */
  dashboardUrl?: string;
  /** The settings written to the env file. */
  settings: Record<string, string>;
  close(): Promise<void>;
}

/** A made-up token: the receiver listens on loopback only. */
const WEBHOOK_TOKEN = 'playground-webhook-token';
/** The playground server's listing on each list besides Guilds. */
const LISTING_SECRETS = sampleSecrets('playground');
/** A `send` is a few words; anything longer is not one. */
const MAX_SEND_BYTES = 4096;
/** How long the first vote may wait for the bot's receiver to listen after it connected. */
const SEED_WITHIN_MS = 15_000;
const SEED_VOTE = ['webhook', 'vote', 'member:dan', 'double:true'];

async function readWords(req: IncomingMessage): Promise<string[] | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_SEND_BYTES) return undefined;
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').startsWith('application/json')) {
    const parsed = JSON.parse(text) as { words?: unknown };
    return Array.isArray(parsed.words) ? parsed.words.map(String) : undefined;
  }
  // curl --data sends the line as typed.
  return splitWords(text);
}

/** One server, set up by the file as a single-server host's .env sets it up. */
function oneServerSettings(discord: DiscordStandIn, sandbox: Sandbox): Record<string, string> {
  const channel = discord.channelId;
  return {
    ...standInConnection(discord, sandbox),
    // One channel (#general) for everything the bot posts, so one look shows it all.
    REVIEW_LOG_CHANNEL_ID: channel,
    REVIEW_CHANNEL_ID: channel,
    VOTE_CHANNEL_ID: channel,
    REMINDER_CHANNEL_ID: channel,
    VOTE_URL: 'https://example.com/vote',
    // The server is on every list: `send webhook vote site:topgg member:bob` delivers as Top.gg does.
    ...Object.fromEntries(
      Object.entries(LISTING_SECRETS).map(([site, secret]) => [`LISTING_${site.toUpperCase()}_SECRET`, secret]),
    ),
  };
}

/**
 * `--dashboard`: the bot serves it here, and Discord's sign-in is the stand-in's, which agrees at once
 * as Maya, with Manage Server in each server.
 */
function dashboardSettings(
  discord: DiscordStandIn,
  servers: readonly PlaygroundServer[],
  publicUrl: string,
): Record<string, string> {
  const permissions = BigInt(maya.member.permissions);
  discord.oauthAs(maya.id, {
    username: maya.name.toLowerCase(),
    guilds: servers.map((server) => ({ id: server.id, name: server.name, permissions })),
  });
  return {
    DASHBOARD_PORT: new URL(publicUrl).port,
    DASHBOARD_HOST: '127.0.0.1',
    DASHBOARD_PUBLIC_URL: publicUrl,
    SESSION_KEY: randomBytes(32).toString('base64'),
    DISCORD_CLIENT_SECRET: discord.clientSecret,
    DISCORD_OAUTH_AUTHORIZE_URL: discord.oauthAuthorizeUrl,
  };
}

/** Many-server mode: no server in the file; each gets its key, channels and webhook token with /setup. */
function manyServerSettings(discord: DiscordStandIn, sandbox: Sandbox): Record<string, string> {
  const {
    DISCORD_GUILD_ID: _guild,
    SERVICE_API_KEY: _key,
    SERVICE_APP_ID: _app,
    MODERATOR_ROLE_IDS: _moderators,
    ...connection
  } = standInConnection(discord, sandbox);
  return {
    ...connection,
    // Made for this session, as `openssl rand -base64 32` makes one: it seals what /setup stores.
    SECRETS_KEY: randomBytes(32).toString('base64'),
    // Votes come through each server's webhook here; with polling on, /setup status would wait up to a
    // minute for a server's first poll before its ✔.
    VOTE_POLL_SECONDS: '0',
  };
}

function listen(server: Server, port: number, what: string, flag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `port ${port} (${what}) is taken: stop what uses it or pick another with ${flag} (0 picks a free one).`
            : `${what} could not listen on 127.0.0.1:${port}: ${error.message}`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** What `npm run playground` starts: the stand-in, the sandbox, the env file and the control endpoint. */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const { say } = options;
  const envFile = path.resolve(options.envFile);
  // Before anything listens: a refused file is a wrong command line, with nothing to undo.
  checkEnvFile(envFile);
  const opened: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const step of opened.reverse()) await step();
  };
  try {
    const servers = playgroundServers(options.servers);
    const many = servers.length > 1;
    const [first, ...others] = servers;
    const sandbox = await startSandbox({
      host: '127.0.0.1',
      port: options.sandboxPort,
      maxLog: 1000,
      // Many servers: each its own key and app id, typed into /setup credentials as an owner would.
      ...(many ? { ...first!.credentials, moreCredentials: others.map((server) => server.credentials) } : {}),
    }).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EADDRINUSE'
        ? new Error(`port ${options.sandboxPort} (the sandbox) is taken: pick another with --sandbox-port.`)
        : error;
    });
    opened.push(() => sandbox.close());
    const discord = await startDiscordStandIn({
      port: options.discordPort,
      otherGuildIds: others.map((server) => server.id),
    }).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EADDRINUSE'
        ? new Error(`port ${options.discordPort} (the Discord stand-in) is taken: pick another with --discord-port.`)
        : error;
    });
    opened.push(() => discord.close());
    // Names for the gateway's member lookups, and the commands as deploy-commands would register them:
    // for the one server, or everywhere (global) with many, as deploy-commands does without DISCORD_GUILD_ID.
    for (const server of servers)
      discord.addMembers(
        CAST.map((p) => p.member),
        server.id,
      );
    const commands = [...(await loadCommands(new URL('../../commands/', import.meta.url))).values()].map((c) =>
      c.data.toJSON(),
    );
    discord.setRegisteredCommands(commands, many ? 'global' : discord.guildId);

    const webhookPort = options.webhookPort === 0 ? await closedPort() : options.webhookPort;
    const webhookUrl = `http://127.0.0.1:${webhookPort}/webhook`;
    const dashboardPort = options.dashboardPort === 0 ? await closedPort() : options.dashboardPort;
    const dashboardUrl = dashboardPort === undefined ? undefined : `http://127.0.0.1:${dashboardPort}`;
    const storeDir = mkdtempSync(path.join(tmpdir(), 'vote-review-bot-playground-'));
    opened.push(() => rmSync(storeDir, { recursive: true, force: true }));
    const settings: Record<string, string> = {
      ...(many ? manyServerSettings(discord, sandbox) : oneServerSettings(discord, sandbox)),
      WEBHOOK_PORT: String(webhookPort),
      WEBHOOK_HOST: '127.0.0.1',
      ...(many ? { WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${webhookPort}` } : { WEBHOOK_TOKEN }),
      // The vote API on the receiver's port: `send api vote member:bob` asks it.
      API_ENABLED: 'true',
      ...(many ? {} : { API_KEYS: PLAYGROUND_API_KEY }),
      // A store of this session's own: the stand-in forgets its messages when it stops, so must the bot.
      DATABASE_URL: `file:${path.join(storeDir, 'bot.sqlite')}`,
      // What the stand-in signs interactions with: `npm run interactions` (off until INTERACTIONS_PORT) checks it.
      DISCORD_PUBLIC_KEY: discord.publicKeyHex,
      ...(dashboardUrl ? dashboardSettings(discord, servers, dashboardUrl) : {}),
    };
    writeEnvFile(envFile, settings);
    opened.push(() => removeEnvFile(envFile));

    const parts: PlaygroundParts = {
      discord,
      sandbox,
      commands,
      webhookUrl,
      webhookToken: many ? undefined : WEBHOOK_TOKEN,
      servers,
      serverTokens: new Map(),
      listingSecrets: LISTING_SECRETS,
      serverListings: new Map(),
      apiKeys: new Map(many ? [] : [[servers[0]!.id, PLAYGROUND_API_KEY]]),
      lastAnswers: new Map(),
      startLine: startLine(envFile),
      envFile,
    };
    const control = createServer((req, res) => {
      const reply = (status: number, text: string) =>
        res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
      if (req.method !== 'POST' || req.url !== '/send') return reply(404, 'POST the words of a send to /send.\n');
      readWords(req)
        .then(async (words) => {
          if (!words) return reply(400, 'Send the words as a line of text or as {"words": [...]}, under 4 KB.\n');
          const answer = await answerSend(parts, words);
          const line = answer.shown ?? words.join(' ');
          say(`send ${line} → ${answer.status === 200 ? 'answered' : answer.text.trim()}`);
          reply(answer.status, answer.text);
        })
        .catch((error: unknown) => reply(500, `The playground failed: ${(error as Error).message}\n`));
    });
    const controlPort = await listen(control, options.controlPort, 'the playground control', '--control-port');
    opened.push(
      () =>
        new Promise<void>((resolve) => {
          control.close(() => resolve());
          control.closeAllConnections();
        }),
    );

    // Dan's seed vote needs a token, which many-server mode has only after /setup webhook.
    const seeding = watchFirstConnection(parts, say, !many);
    opened.push(() => seeding.stop());
    return {
      discord,
      sandbox,
      controlUrl: `http://127.0.0.1:${controlPort}`,
      webhookUrl,
      servers,
      ...(dashboardUrl ? { dashboardUrl } : {}),
      settings,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Once the bot first connects, Dan votes (a double vote) through Guilds' webhook, as `send webhook
 * vote member:dan double:true` would: /leaderboard has a row and #general an announcement. A
 * restarted bot keeps its store, and with it the vote, so this happens once.
 */
function watchFirstConnection(parts: PlaygroundParts, say: (line: string) => void, seeds: boolean) {
  const { discord } = parts;
  let sessions = 0;
  let stopped = false;
  const seed = async () => {
    const until = Date.now() + SEED_WITHIN_MS;
    for (;;) {
      const answer = await answerSend(parts, SEED_VOTE);
      // 503: the receiver is not listening yet; anything else is the answer.
      if (answer.status !== 503 || Date.now() > until || stopped) return answer;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const timer = setInterval(() => {
    if (discord.gatewaySessions === sessions) return;
    const first = sessions === 0;
    sessions = discord.gatewaySessions;
    say(`The bot connected (gateway session ${sessions}).`);
    if (!first || !seeds) return;
    void seed().then(
      (answer) =>
        !stopped &&
        say(
          answer.status === 200
            ? `Dan's double vote came in through the bot's receiver, so /leaderboard has a row:\n${answer.text}`
            : `Dan's seed vote was not announced: ${answer.text.trim()}`,
        ),
      (error: unknown) => !stopped && say(`Dan's seed vote failed: ${(error as Error).message}`),
    );
  }, 250);
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
