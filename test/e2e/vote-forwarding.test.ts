import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:net';
import type { AdaptedSiteId } from '../../src/lists/index.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';
import {
  DEFAULTS,
  nextSnowflake,
  startDiscordStandIn,
  type DiscordStandIn,
} from '../../tools/discord-standin/index.js';
import { startForwardDestination, type ForwardDestination, type Received } from '../../tools/forward-destination.js';
import { sampleSecrets, sendAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles } from '../../tools/receiver-env.js';
import { botEnvironment } from '../../tools/world.js';

// Issue 51, "Vote forwarding", through the built bot, the Discord stand-in, the list senders and a
// local destination: every vote the ledger takes is POSTed, signed, once; a failing destination gets
// every vote later; a SIGKILL loses none; private addresses and redirects are refused.

const GUILD = DEFAULTS.guildId;
const SECRETS = sampleSecrets('forward');
const FORWARD_SECRET = 'forward-secret-for-the-e2e-0123456789';
const SITES: AdaptedSiteId[] = ['topgg', 'discordplace', 'discadia'];

let sandbox: Sandbox;
let discord: DiscordStandIn;
let destination: ForwardDestination;
let bot: BotProcess;
let env: Record<string, string>;
let webhookUrl: string;

const listingSecrets = Object.fromEntries(SITES.map((site) => [`LISTING_${site.toUpperCase()}_SECRET`, SECRETS[site]]));

async function startForwardingBot(extra: Record<string, string> = {}): Promise<BotProcess> {
  const started = startBot({ ...botEnvironment(discord, sandbox), ...env, ...extra });
  await started.waitForLog((line) => line.msg === 'ready', 15_000, 'the ready log line');
  return started;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  discord = await startDiscordStandIn();
  destination = await startForwardDestination({ secret: FORWARD_SECRET });
  const { url, ...receiver } = await receiverEnv(listingSecrets);
  webhookUrl = url;
  env = {
    ...receiver,
    FORWARD_URLS: destination.url,
    FORWARD_SECRET,
    FORWARD_ALLOW_PRIVATE: 'true',
  };
  bot = await startForwardingBot();
}, 40_000);
afterAll(async () => {
  await bot?.stop('SIGKILL');
  await Promise.all([destination?.close(), discord?.close(), sandbox?.close()]);
  removeStoreFiles();
});

const vote = async (site: AdaptedSiteId, memberId: string, url = webhookUrl) => {
  const { status } = await sendAs(site, {
    url: `${url}/${site}`,
    secret: SECRETS[site],
    vote: { guildId: GUILD, memberId },
    delayScale: 0.001,
  });
  expect(status).toBe(200);
};
const of = (memberId: string) => (received: Received[]) => received.filter((r) => r.body.data?.member_id === memberId);
const delivered = (memberId: string) => (received: Received[]) =>
  of(memberId)(received).filter((r) => r.answered === 200);

describe('vote forwarding', () => {
  it('forwards a vote on each of three lists once, signed so a verifier from the issue text accepts it', async () => {
    const voters = SITES.map(() => nextSnowflake());
    for (const [i, site] of SITES.entries()) await vote(site, voters[i]!);
    await destination.waitUntil((r) => voters.every((v) => delivered(v)(r).length === 1), 15_000, 'three votes');
    for (const [i, site] of SITES.entries()) {
      const [one] = of(voters[i]!)(destination.received);
      expect(one).toMatchObject({ signed: true, body: { type: 'vote.create' } });
      expect(one!.body.id).toBe(one!.deliveryId);
      expect(one!.body.data).toMatchObject({
        guild_id: GUILD,
        member_id: voters[i],
        site,
        weight: 1,
        totals: { month: 1, all_time: 1, streak: 1 },
      });
      expect(Date.parse(String(one!.body.data.expires_at))).toBeGreaterThan(
        Date.parse(String(one!.body.data.voted_at)),
      );
    }
    // A later vote, delivered, proves nothing else came for these three meanwhile.
    const later = nextSnowflake();
    await vote('topgg', later);
    await destination.waitUntil((r) => delivered(later)(r).length === 1, 15_000, 'a later vote');
    for (const voter of voters) expect(of(voter)(destination.received)).toHaveLength(1);
  });

  it('gets every vote to a destination that answered 503 for a while, in order, none twice', async () => {
    destination.answer = () => ({ status: 503 });
    const voters = [nextSnowflake(), nextSnowflake(), nextSnowflake()];
    for (const voter of voters) await vote('discordplace', voter);
    // The first vote tried and tried again: the others wait behind it.
    await destination.waitUntil((r) => of(voters[0]!)(r).length >= 2, 15_000, 'a retry of the first vote');
    destination.answer = () => ({ status: 200 });
    await destination.waitUntil((r) => voters.every((v) => delivered(v)(r).length === 1), 30_000, 'every vote');
    const ids = voters.map((voter) => of(voter)(destination.received).map((r) => r.deliveryId));
    // Each vote kept one delivery id across its retries; no id was delivered twice.
    for (const attempts of ids) expect(new Set(attempts).size).toBe(1);
    const okOrder = destination.received.filter((r) => r.answered === 200).map((r) => r.body.data.member_id);
    expect(okOrder.filter((member) => voters.includes(String(member)))).toEqual(voters);
  });

  it('does not follow a redirect: the delivery is given up, shown in the log, and the next vote goes on', async () => {
    const elsewhere = await startForwardDestination({ secret: FORWARD_SECRET });
    const redirected = nextSnowflake();
    destination.answer = (r) =>
      r.body.data?.member_id === redirected ? { status: 302, headers: { location: elsewhere.url } } : { status: 200 };
    await vote('topgg', redirected);
    const line = await bot.waitForLog(
      (l) => l.msg === 'forwarded vote given up: the destination refused it' && l.status === 302,
      15_000,
      'the redirect given up',
    );
    expect(line).toMatchObject({ guildId: GUILD, outcome: 'gaveUp' });
    const next = nextSnowflake();
    await vote('topgg', next);
    await destination.waitUntil((r) => delivered(next)(r).length === 1, 15_000, 'the next vote');
    expect(elsewhere.received).toHaveLength(0);
    expect(of(redirected)(destination.received)).toHaveLength(1);
    await elsewhere.close();
    destination.answer = () => ({ status: 200 });
  });

  it('sends after a restart what was stored before a SIGKILL, with the same delivery id', async () => {
    // The destination takes the request and never answers: the bot is killed with the vote in the
    // ledger and its send not done.
    destination.answer = () => 'hold';
    const voter = nextSnowflake();
    await vote('discadia', voter);
    await destination.waitUntil((r) => of(voter)(r).length >= 1, 15_000, 'the send in flight');
    const [before] = of(voter)(destination.received);
    expect(await bot.stop('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
    destination.answer = () => ({ status: 200 });
    bot = await startForwardingBot();
    await destination.waitUntil((r) => delivered(voter)(r).length === 1, 20_000, 'the vote after the restart');
    expect(delivered(voter)(destination.received)[0]!.deliveryId).toBe(before!.deliveryId);
  });
});

describe('without FORWARD_ALLOW_PRIVATE', () => {
  let strict: BotProcess;
  let listener: Server;
  let connections = 0;
  let strictUrl: string;

  beforeAll(async () => {
    const port = await closedPort();
    listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(port, '127.0.0.1', resolve));
    const { url, ...receiver } = await receiverEnv(listingSecrets);
    strictUrl = url;
    strict = startBot({
      ...botEnvironment(discord, sandbox),
      ...receiver,
      FORWARD_URLS: `https://localhost:${port}/votes,https://169.254.169.254/latest/votes`,
      FORWARD_SECRET,
    });
    await strict.waitForLog((line) => line.msg === 'ready', 15_000, 'the ready log line');
  }, 30_000);
  afterAll(async () => {
    await strict?.stop('SIGKILL');
    await new Promise((resolve) => listener?.close(resolve));
  });

  it('refuses destinations resolving to 127.0.0.1 or 169.254.169.254 and never connects', async () => {
    await vote('topgg', nextSnowflake(), strictUrl);
    const refused = (l: Record<string, unknown>) =>
      l.msg === 'forwarded vote not delivered; trying again' && l.outcome === 'refused' && l.reason === 'private';
    await strict.waitForLog(
      () => new Set(strict.logs.filter(refused).map((l) => l.destinationId)).size === 2,
      15_000,
      'both destinations refused',
    );
    expect(connections).toBe(0);
  });
});
