import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { REST } from 'discord.js';
import { ReviewNotFoundError } from '../../src/api/index.js';
import { discordPoster } from '../../src/bot/poster.js';
import { ReplyGuard } from '../../src/bot/reply-guard.js';
import { postReviewReply, type ReplyContext } from '../../src/replies/post-reply.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { effectiveSettings } from '../../src/servers/server-settings.js';
import { startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';
import { capturedLog } from '../support/captured-log.js';
import { useSandbox } from '../support/sandbox-per-file.js';
import { fastClient } from '../support/service.js';
import type { Actor } from '../../src/bot/actor.js';

// The dashboard's inbox posts a reply without a modal: the same path as the Reply button's form.
let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
let discord: DiscordStandIn;
let rest: REST;
let answered: Array<{ reviewId: string; moderatorId: string | null; replyId: string | null }>;
let gone: string[];

beforeAll(async () => {
  discord = await startDiscordStandIn();
  rest = new REST({ api: discord.apiUrl, retries: 0 }).setToken(discord.token);
});
afterAll(async () => {
  await discord?.close();
});
beforeEach(() => {
  answered = [];
  gone = [];
});

const dana: Actor = { userId: '330000000000000003', name: 'Dana <@everyone>', via: 'dashboard', locale: 'en-US' };

function serverContext(): ReplyContext {
  return {
    // A POST is never sent again once it may have reached the service: a first one slower than
    // fastClient's 300 ms (a cold worker) would be "outcome unknown", which this file does not test.
    api: fastClient(sandbox, { attemptTimeoutMs: 5_000, totalBudgetMs: 10_000 }),
    replyGuard: new ReplyGuard(),
    settings: effectiveSettings(discord.guildId, { auditChannelId: discord.channelId }),
    logger: capturedLog().logger,
    now: () => new Date(),
    feed: {
      onAnswered: async (reviewId, { replyId, moderatorId }) => {
        answered.push({ reviewId, replyId, moderatorId });
      },
      onGone: async (reviewId) => {
        gone.push(reviewId);
      },
    },
  };
}

const way = () => ({ poster: discordPoster(rest), serverLocale: 'en-US' });
const audits = () =>
  discord.channelMessages(discord.channelId).filter((m) => m.embeds[0]?.title === 'Review reply posted');

describe('a reply posted from the dashboard', () => {
  it('is posted through the service, audited with the member, and marks the feed post answered', async () => {
    const review = sandbox.getReviewById('rev_7Hq2LmX9')!;
    const before = audits().length;
    const ctx = serverContext();
    const { reply, fresh } = await postReviewReply(
      ctx,
      { reviewId: review.id, authorId: review.authorId, content: '  Thanks for the kind words!  ', pinned: true },
      dana,
      way(),
    );
    expect(sandbox.repliesTo(review.id)).toEqual([
      { id: reply.id, content: 'Thanks for the kind words!', pinned: true },
    ]);
    expect(fresh?.replies).toBe(review.replies + 1);
    expect(answered).toEqual([{ reviewId: review.id, replyId: reply.id, moderatorId: dana.userId }]);
    const audit = audits().slice(before);
    expect(audit).toHaveLength(1);
    const embed = audit[0]!.embeds[0]!;
    expect(embed.description).toBe('Thanks for the kind words!');
    expect(embed.footer?.text).toBe('Posted on the dashboard by Dana <@everyone>');
    expect(JSON.stringify(embed.fields)).toContain(`<@${dana.userId}>`);
    expect(audit[0]!.mention_everyone ?? false).toBe(false);
  });

  it('posts one form sent twice once, and refuses an empty reply as the form does, posting nothing', async () => {
    const review = sandbox.getReviewById('rev_7Hq2LmX9')!;
    const ctx = serverContext();
    const request = { reviewId: review.id, authorId: review.authorId, content: 'Once', pinned: false };
    await postReviewReply(ctx, request, dana, way());
    await expect(postReviewReply(ctx, request, dana, way())).rejects.toMatchObject({ key: 'refusal.replyPosted' });
    await expect(postReviewReply(ctx, { ...request, content: '   ' }, dana, way())).rejects.toMatchObject({
      key: 'refusal.replyEmpty',
    });
    expect(sandbox.repliesTo(review.id).map((r) => r.content)).toEqual(['Once']);
  });

  it("says nothing of the dashboard in a reply sent with the Reply button's form", async () => {
    const review = sandbox.getReviewById('rev_7Hq2LmX9')!;
    const before = audits().length;
    const moderator: Actor = { userId: '330000000000000004', name: 'Mo', via: 'command', locale: 'en-US' };
    await postReviewReply(
      serverContext(),
      { reviewId: review.id, authorId: null, content: 'From Discord', pinned: false },
      moderator,
      way(),
    );
    const [audit] = audits().slice(before);
    expect(audit?.embeds[0]?.footer).toBeUndefined();
    expect(answered.map((a) => a.moderatorId)).toEqual([moderator.userId]);
  });

  it('takes a review the service no longer has out of the inbox, and says so', async () => {
    const ctx = serverContext();
    const missing = 'rev_GoneGone1';
    await expect(
      postReviewReply(ctx, { reviewId: missing, authorId: null, content: 'Thanks!', pinned: false }, dana, way()),
    ).rejects.toBeInstanceOf(ReviewNotFoundError);
    expect(gone).toEqual([missing]);
    expect(answered).toEqual([]);
  });
});
