import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { textOf } from '../../tools/conversation.js';
import {
  DEFAULTS,
  member,
  MODERATOR_PERMISSIONS,
  nextSnowflake,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type CommandOption,
} from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { sendAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';

// Issue 34: announcements of a server on Guilds, Top.gg and Discollab (single-server mode, the
// lists from LISTING_<SITE>_SECRET), through the built bot and the Discord stand-in.

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);
const TOPGG_SECRET = 'whs_announce0123456789abcdefghijklm';
const DISCOLLAB_SECRET = 'discollab-bearer-token-announce-01';
const admin = member({ permissions: MODERATOR_PERMISSIONS });

let world: World;
let url: string;
beforeAll(async () => {
  const { url: webhookUrl, ...env } = await receiverEnv({
    VOTE_CHANNEL_ID: CHANNEL,
    LISTING_TOPGG_SECRET: TOPGG_SECRET,
    LISTING_DISCOLLAB_SECRET: DISCOLLAB_SECRET,
  });
  url = webhookUrl;
  world = await startWorld({ env });
}, 30_000);
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

/** Resolves once the wall clock has passed the millisecond it reads now (the receiver stamps deliveries in ms). */
async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setImmediate(resolve));
}
const text = (name: string, value: string): CommandOption => ({ name, type: OptionType.String, value });
const flag = (name: string, value: boolean): CommandOption => ({ name, type: OptionType.Boolean, value });
const announce = (options: CommandOption[]) =>
  world.discord
    .sendInteraction(
      slashCommand({
        name: 'setup',
        member: admin,
        options: [{ name: 'announce', type: OptionType.Subcommand, options }],
      }),
    )
    .waitForMessage();

/** The lines naming the voter in the vote channel, oldest first (a batch has a line per voter). */
const linesNaming = (userId: string) =>
  world.discord
    .channelMessages(CHANNEL)
    .flatMap((message) => textOf(message).split('\n'))
    .filter((line) => line.includes(userId));

/** One vote each on Guilds, Top.gg and Discollab, in that order, a moment apart. */
async function voteEverywhere(userId: string, lists: ReadonlyArray<'guilds' | 'topgg' | 'discollab'>) {
  const vote = { guildId: GUILD, memberId: userId };
  for (const list of lists) {
    if (list === 'guilds') expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, userId))).toBe(200);
    else {
      const secret = list === 'topgg' ? TOPGG_SECRET : DISCOLLAB_SECRET;
      expect((await sendAs(list, { url: `${url}/${list}`, secret, vote })).status).toBe(200);
    }
    // Each vote stamped after the last (the one before was stamped before its 200 came back), so
    // "the lists voted on up to this vote" is the ones before it.
    await nextMillisecond();
  }
}

describe('a template with {site} and {sites_today}', () => {
  afterAll(async () => {
    await announce([flag('clear', true)]);
  });

  it('names each vote’s list and counts the lists voted on today, this one included', async () => {
    const set = await announce([text('template', '{user} voted on {site} ({sites_today} today)')]);
    expect(textOf(set)).toContain(`<@${admin.user.id}> voted on Guilds (1 today)`);
    const voter = nextSnowflake();
    await voteEverywhere(voter, ['guilds', 'topgg', 'discollab']);
    await world.discord.waitUntil(() => linesNaming(voter).length === 4, 10_000, 'three announcements');
    expect(linesNaming(voter)).toEqual([
      `<@${voter}> voted on Guilds (1 today)`,
      `<@${voter}> voted on Top.gg (2 today)`,
      `<@${voter}> voted on Discollab (3 today)`,
      // The server's three lists within 24 hours: the every-list line follows the template's.
      `<@${voter}> voted on every list today`,
    ]);
  });
});

describe('the every-list line', () => {
  const EVERY = 'voted on every list today';

  it('follows the third vote’s line in the built-in announcement, and no earlier one', async () => {
    const voter = nextSnowflake();
    await voteEverywhere(voter, ['guilds', 'topgg']);
    await world.discord.waitUntil(() => linesNaming(voter).length === 2, 10_000, 'two announcements');
    expect(linesNaming(voter).join('\n')).not.toContain(EVERY);
    await voteEverywhere(voter, ['discollab']);
    await world.discord.waitUntil(() => linesNaming(voter).length >= 3, 10_000, 'the third announcement');
    const lines = linesNaming(voter);
    expect(lines.slice(2)).toEqual([expect.stringContaining('voted on Discollab'), expect.stringContaining(EVERY)]);
  });

  it('is left out once /setup announce every-list:false, and back with every-list:true', async () => {
    const off = await announce([flag('every-list', false)]);
    expect(textOf(off)).toContain('Every list today: off.');
    const voter = nextSnowflake();
    await voteEverywhere(voter, ['guilds', 'topgg', 'discollab']);
    // The line would share the third vote's message: once that line is there, so would it be.
    await world.discord.waitUntil(() => linesNaming(voter).length >= 3, 10_000, 'three announcements');
    expect(linesNaming(voter)).toHaveLength(3);
    expect(linesNaming(voter).join('\n')).not.toContain(EVERY);
    const on = await announce([flag('every-list', true)]);
    expect(textOf(on)).toContain('Every list today: a member who votes on all');
  });
});
