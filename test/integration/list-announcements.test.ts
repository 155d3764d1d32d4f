import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { voteSource } from '../../src/feeds/post-sources.js';
import { english } from '../../src/i18n/index.js';
import { openStore, type NewVote, type OutgoingPost, type Store, type StoreRoot } from '../../src/store/index.js';
import type { AnnouncementTemplates } from '../../src/views/vote-announcement.js';
import { listVote } from '../support/list-vote.js';

// Announcements name the list a vote came from (issue 34): the feed reads the waiting votes from a
// real store, with their list, and words them; a Guilds vote reads exactly as before lists came.

const HOUR = 3_600_000;
const ALICE = '284102390141648897';
const BOB = '593031275438718986';
const T = Date.UTC(2026, 10, 15, 12);

const vote = listVote;

let dir: string;
let root: StoreRoot;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'bot-list-announce-'));
  root = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
});

afterAll(async () => {
  await root?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the feed posts for the server's waiting votes (each test uses a server of its own). */
async function posted(
  guildId: string,
  votes: readonly NewVote[],
  templates?: AnnouncementTemplates,
  serverSites?: readonly string[],
): Promise<{ body: OutgoingPost['body']; items: number }> {
  const store: Store = root.forServer(guildId);
  for (const one of votes) expect(await store.acceptVote(one)).toBe(true);
  let made: { body: OutgoingPost['body']; items: number } | undefined;
  const source = voteSource({
    store: {
      ...bind(store),
      async createPost(post, items) {
        made = { body: post.body, items: items.length };
        return 1;
      },
    },
    now: () => T + HOUR,
    i18n: () => english,
    names: async () => new Map(),
    gatherMs: 0,
    ...(templates ? { templates, serverName: () => 'Cosy Corner' } : {}),
    ...(serverSites ? { serverSites: () => serverSites } : {}),
  });
  expect(await source.claim('333333333333333333')).toEqual({ post: 1 });
  return made!;
}

/** The store's reads the feed takes, bound to it. */
const bind = (store: Store) => ({
  waitingVotes: store.waitingVotes.bind(store),
  waitingReviews: store.waitingReviews.bind(store),
  votesBySite: store.votesBySite.bind(store),
  mirrorTotals: store.mirrorTotals.bind(store),
  countMark: store.countMark.bind(store),
  setCountMark: store.setCountMark.bind(store),
});

const description = (body: OutgoingPost['body']) =>
  (body as { embeds: Array<{ description: string }> }).embeds.map((embed) => embed.description).join('\n');

describe('the built-in announcement of votes on several lists', () => {
  it('names the list of a vote on Top.gg or Discollab, reads a weight-2 Top.gg vote as a double, and a Guilds vote as ever', async () => {
    const { body, items } = await posted('444444444444444401', [
      vote(ALICE, 'guilds', T),
      vote(ALICE, 'topgg', T + 1, { weight: 2, double: true, siteEventId: 'tg-1' }),
      vote(BOB, 'discollab', T + 2),
      vote(BOB, 'discordplace', T + 3),
    ]);
    expect(items).toBe(4);
    expect(description(body)).toBe(
      [
        `<@${ALICE}> voted`,
        `<@${ALICE}> voted on Top.gg (double vote)`,
        `<@${BOB}> voted on Discollab`,
        `<@${BOB}> voted on discord.place`,
      ].join('\n'),
    );
  });
});

describe('the every-list line', () => {
  const EVERY = 'voted on every list today';

  it('follows the vote that completes the member’s votes on all of the server’s lists within 24 hours', async () => {
    const { body } = await posted(
      '444444444444444402',
      [vote(ALICE, 'guilds', T - 23 * HOUR), vote(ALICE, 'topgg', T), vote(BOB, 'topgg', T + 1)],
      undefined,
      ['guilds', 'topgg'],
    );
    expect(description(body)).toBe(
      [
        `<@${ALICE}> voted`,
        `<@${ALICE}> voted on Top.gg`,
        `<@${ALICE}> ${EVERY}`,
        // Bob voted on Top.gg alone: one of the server's two lists.
        `<@${BOB}> voted on Top.gg`,
      ].join('\n'),
    );
  });

  it('follows a template’s line too, mentioning without pinging unless the template’s {user} pings', async () => {
    const { body } = await posted(
      '444444444444444403',
      [vote(ALICE, 'guilds', T), vote(ALICE, 'discollab', T + 1)],
      { template: '{name} voted on {site}', firstVote: undefined, ping: true },
      ['guilds', 'discollab'],
    );
    expect(body).toEqual({
      content: [`<@${ALICE}> voted on Guilds`, `<@${ALICE}> voted on Discollab`, `<@${ALICE}> ${EVERY}`].join('\n'),
      allowed_mentions: { parse: [], users: [] },
    });
  });

  it('is never shown on a server on Guilds alone, nor when a list was voted on more than 24 hours ago', async () => {
    const alone = await posted('444444444444444404', [vote(ALICE, 'guilds', T)], undefined, ['guilds']);
    expect(description(alone.body)).toBe(`<@${ALICE}> voted`);
    const stale = await posted(
      '444444444444444405',
      [vote(BOB, 'guilds', T - 25 * HOUR, { periodEndsAt: T - 13 * HOUR }), vote(BOB, 'topgg', T)],
      undefined,
      ['guilds', 'topgg'],
    );
    expect(description(stale.body)).not.toContain(EVERY);
  });
});
