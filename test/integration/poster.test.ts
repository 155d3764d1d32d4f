import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REST } from 'discord.js';
import { discordPoster, newNonce, textBody, type Poster } from '../../src/bot/poster.js';
import { tellAuditChannel } from '../../src/bot/tell-audit-channel.js';
import { capturedLog } from '../support/captured-log.js';
import { classifyFailure } from '../../src/work/failure.js';
import { member, startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

let discord: DiscordStandIn;
let poster: Poster;

beforeAll(async () => {
  discord = await startDiscordStandIn();
  poster = discordPoster(new REST({ api: discord.apiUrl, retries: 0 }).setToken(discord.token));
});
afterAll(async () => {
  await discord?.close();
});

describe('the one poster', () => {
  it('posts once for one nonce, however often the post is tried again', async () => {
    const nonce = newNonce();
    const first = await poster.send(discord.channelId, textBody('once'), nonce);
    const again = await poster.send(discord.channelId, textBody('once'), nonce);
    expect(again).toBe(first);
    expect(discord.channelMessages(discord.channelId).filter((m) => m.content === 'once')).toHaveLength(1);
  });

  it('DMs a member, and a member with closed DMs fails with what Discord said', async () => {
    const { user } = member();
    await poster.dm(user.id, textBody('hello'));
    expect(discord.directMessages(user.id).map((m) => m.content)).toEqual(['hello']);
    discord.closeDms(user.id);
    await expect(poster.dm(user.id, textBody('again'))).rejects.toMatchObject({ code: 50007 });
  });

  it('never fails the work an audit message reports on: the failure is handed over, classified as before', async () => {
    const failures: unknown[] = [];
    discord.failChannelMessages(404, discord.channelId);
    try {
      expect(await poster.audit(discord.channelId, textBody('<@&1> refused'), (err) => failures.push(err))).toBe(false);
    } finally {
      discord.failChannelMessages(null, discord.channelId);
    }
    expect(failures).toHaveLength(1);
    expect(classifyFailure(failures[0])).toMatchObject({ kind: 'refused', reason: 'unknown' });
    const ok = await poster.audit(discord.channelId, textBody('<@&1> refused'), (err) => failures.push(err));
    expect(ok).toBe(true);
    expect(failures).toHaveLength(1);
    const posted = discord.channelMessages(discord.channelId).at(-1)!;
    expect(posted.content).toBe('<@&1> refused');
  });
});

describe('telling the audit channel', () => {
  it('posts the notice in the audit channel', async () => {
    const { logger, lines } = capturedLog();
    const told = await tellAuditChannel(poster, {
      channelId: discord.channelId,
      body: textBody('<@&1> is refused'),
      logger,
      failedLine: 'could not tell',
    });
    expect(told).toBe(true);
    expect(discord.channelMessages(discord.channelId).at(-1)?.content).toBe('<@&1> is refused');
    expect(lines).toEqual([]);
  });

  it('posts nothing when the server has no audit channel', async () => {
    const { logger, lines } = capturedLog();
    const before = discord.requests.length;
    const told = await tellAuditChannel(poster, {
      channelId: undefined,
      body: textBody('nobody reads this'),
      logger,
      failedLine: 'could not tell',
    });
    expect(told).toBe(false);
    expect(discord.requests).toHaveLength(before);
    expect(lines).toEqual([]);
  });

  it('logs a failed post at warn with the audit channel, and never throws', async () => {
    const { logger, lines } = capturedLog();
    discord.failChannelMessages(403, discord.channelId);
    try {
      const told = await tellAuditChannel(poster, {
        channelId: discord.channelId,
        body: textBody('refused'),
        logger,
        failedLine: 'could not tell the audit channel',
      });
      expect(told).toBe(false);
    } finally {
      discord.failChannelMessages(null, discord.channelId);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      msg: 'could not tell the audit channel',
      channelId: discord.channelId,
    });
    expect(lines[0]!.err).toMatchObject({ status: 403 });
  });

  it('logs at error, with what the notice was about, when asked', async () => {
    const { logger, lines } = capturedLog();
    discord.failChannelMessages(500, discord.channelId);
    try {
      await tellAuditChannel(poster, {
        channelId: discord.channelId,
        body: textBody('a reply'),
        logger,
        failedLine: 'could not post the reply audit message',
        level: 'error',
        context: { replyId: 'r1' },
      });
    } finally {
      discord.failChannelMessages(null, discord.channelId);
    }
    expect(lines).toMatchObject([
      { level: 50, msg: 'could not post the reply audit message', channelId: discord.channelId, replyId: 'r1' },
    ]);
  });
});
