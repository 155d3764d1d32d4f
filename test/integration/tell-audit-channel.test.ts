import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REST } from 'discord.js';
import { discordPoster, textBody, type Poster } from '../../src/bot/poster.js';
import { tellAuditChannel } from '../../src/bot/tell-audit-channel.js';
import { capturedLog } from '../support/captured-log.js';
import { startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

let discord: DiscordStandIn;
let poster: Poster;

beforeAll(async () => {
  discord = await startDiscordStandIn();
  poster = discordPoster(new REST({ api: discord.apiUrl, retries: 0 }).setToken(discord.token));
});
afterAll(async () => {
  await discord?.close();
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
