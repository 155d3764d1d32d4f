import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { InteractionResponseType, MessageFlags } from 'discord.js';
import { asMember, buttonIds, moderator, textOf } from '../../tools/conversation.js';
import { member, type Message } from '../../tools/discord-standin/index.js';
import { startWorld, type World } from '../../tools/world.js';
import { CRITIC, CRITIC_REVIEW } from '../../tools/seed.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});
beforeEach(() => {
  world.sandbox.reset();
});

/** A moderator's own /review of the critic, the message the Reply button sits on. */
async function reviewMessage(who = asMember(world.discord, moderator())): Promise<Message> {
  return who.command('review', { member: CRITIC }).waitForMessage();
}

function uniqueText(label: string): string {
  return `${label} ${Math.random().toString(36).slice(2, 8)}`;
}

describe('the moderator reply flow', () => {
  it('opens the reply form for a moderator, with the text and pin fields', async () => {
    const mod = asMember(world.discord, moderator());
    const click = mod.click(await reviewMessage(mod), `review-reply:${CRITIC_REVIEW}`);
    const modal = await click.waitForModal();
    expect(click.callbacks[0]?.type).toBe(InteractionResponseType.Modal);
    expect(modal.custom_id).toBe(`review-reply-submit:${CRITIC_REVIEW}`);
    const inner = modal.components.map((c: { component: { custom_id: string } }) => c.component.custom_id);
    expect(inner).toEqual(['reply-content', 'reply-pinned']);
  });

  it('posts the reply as the guild, updates the review with the fresh count, confirms and audits', async () => {
    const mod = asMember(world.discord, moderator());
    const message = await reviewMessage(mod);
    const repliesBefore = world.sandbox.getReviewById(CRITIC_REVIEW)!.replies;
    const text = uniqueText('Thanks **a lot** @everyone');
    const submit = mod.submitReply(message, CRITIC_REVIEW, text, 'yes');
    const updated = await submit.waitForMessage();

    const posted = world.sandbox.repliesTo(CRITIC_REVIEW);
    expect(posted).toEqual([expect.objectContaining({ content: text, pinned: true })]);
    expect(submit.callbacks[0]?.type).toBe(InteractionResponseType.UpdateMessage);
    expect(updated.id).toBe(message.id);
    expect(updated.embeds[0]?.fields.find((f: { name: string }) => f.name === 'Replies')?.value).toBe(
      String(repliesBefore + 1),
    );

    await submit.waitFor((h) => h.followUps().length === 1);
    const confirmation = submit.followUps()[0]!;
    expect(confirmation.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(textOf(confirmation)).toContain(posted[0]!.id);

    await world.discord.waitUntil(
      () => world.discord.channelMessages(world.discord.channelId).length > 0,
      5_000,
      'the audit message',
    );
    const audit = world.discord.channelMessages(world.discord.channelId).at(-1)!;
    const auditText = textOf(audit);
    expect(auditText).toContain(`<@${mod.who.user.id}>`);
    expect(auditText).toContain(CRITIC_REVIEW);
    expect(auditText).toContain(`<@${CRITIC}>`);
    expect(auditText).toContain('\\*\\*a lot\\*\\*');
    expect(auditText).toMatch(/Pinned[\s\S]*Yes/);
    expect(auditText).not.toMatch(/(^|[^\u200b])@everyone/);
  });

  it('lets a member with a configured moderator role reply without Manage Server', async () => {
    const roleHolder = asMember(world.discord, member({ roles: [world.discord.moderatorRoleId] }));
    const message = await reviewMessage(roleHolder);
    expect(buttonIds(message)).toEqual([`review-reply:${CRITIC_REVIEW}`]);
    const text = uniqueText('Role reply');
    await roleHolder.submitReply(message, CRITIC_REVIEW, text).waitForMessage();
    expect(world.sandbox.repliesTo(CRITIC_REVIEW).map((r) => r.content)).toEqual([text]);
  });

  it('refuses the Reply button to a member who is not a moderator', async () => {
    const message = await reviewMessage();
    const click = asMember(world.discord).click(message, `review-reply:${CRITIC_REVIEW}`);
    const answer = await click.waitForMessage();
    expect(click.modal()).toBeUndefined();
    expect(answer.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(textOf(answer)).toMatch(/Only moderators can reply/);
  });

  it('refuses a forged reply form from a non-moderator and posts nothing', async () => {
    const message = await reviewMessage();
    const answer = await asMember(world.discord).submitReply(message, CRITIC_REVIEW, 'forged').waitForMessage();
    expect(textOf(answer)).toMatch(/Only moderators can reply/);
    expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toEqual([]);
    expect(world.sandbox.requestCount('postReply')).toBe(0);
  });

  it('posts the same form once when it is submitted twice', async () => {
    const mod = asMember(world.discord, moderator());
    const message = await reviewMessage(mod);
    const text = uniqueText('Twice');
    await mod.submitReply(message, CRITIC_REVIEW, text).waitForMessage();
    const second = await mod.submitReply(message, CRITIC_REVIEW, text).waitForMessage();
    expect(textOf(second)).toMatch(/already posted/);
    expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toHaveLength(1);
  });

  it('posts once when the same form arrives twice at the same moment', async () => {
    const mod = asMember(world.discord, moderator());
    const message = await reviewMessage(mod);
    const text = uniqueText('Double click');
    const [a, b] = [mod.submitReply(message, CRITIC_REVIEW, text), mod.submitReply(message, CRITIC_REVIEW, text)];
    const answers = await Promise.all([a.waitForMessage(), b.waitForMessage()]);
    expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toHaveLength(1);
    expect(answers.map(textOf).join('\n')).toMatch(/already being posted|already posted/);
  });

  it.each([
    ['empty', '   ', /reply is empty/],
    ['too long', 'x'.repeat(1_001), /1,001 characters long/],
  ])('refuses a reply that is %s with what to do, posting nothing', async (_label, text, problem) => {
    const mod = asMember(world.discord, moderator());
    const answer = await mod.submitReply(await reviewMessage(mod), CRITIC_REVIEW, text).waitForMessage();
    expect(answer.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(textOf(answer)).toMatch(problem);
    expect(world.sandbox.requestCount('postReply')).toBe(0);
  });

  it('says the review no longer exists when it was deleted before the reply', async () => {
    const mod = asMember(world.discord, moderator());
    const message = await reviewMessage(mod);
    world.sandbox.deleteReview(CRITIC);
    const answer = await mod.submitReply(message, CRITIC_REVIEW, uniqueText('Too late')).waitForMessage();
    expect(textOf(answer)).toMatch(/That review no longer exists/);
  });

  it('says the outcome is unknown, and does not send again, when the service fails mid-post', async () => {
    const mod = asMember(world.discord, moderator());
    const message = await reviewMessage(mod);
    world.sandbox.setFault('postReply', { status: 500 });
    const answer = await mod.submitReply(message, CRITIC_REVIEW, uniqueText('Unknown')).waitForMessage();
    expect(textOf(answer)).toMatch(/may or may not have been posted; check the review before sending it again/);
    expect(world.sandbox.requestCount('postReply')).toBe(1);
  });
});
