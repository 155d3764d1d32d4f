import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asMember, buttonIds, textOf } from '../../tools/conversation.js';
import { member } from '../../tools/discord-standin/index.js';
import { startWorld, type World } from '../../tools/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

/** The members a /votes page lists, in order. */
const mentioned = (text: string) => [...text.matchAll(/<@(\d+)>/g)].map((m) => m[1]!);

describe('names beside mentions on /votes', () => {
  it('shows the display names the gateway knows, escaped, and pings nobody', async () => {
    // Asked while the gateway holds back: the answer still comes, without names, and counts the request.
    world.discord.pauseMemberRequests(true);
    const before = world.discord.memberRequests;
    const unnamed = await asMember(world.discord).command('votes').waitForMessage(5_000);
    expect(world.discord.memberRequests).toBe(before + 1);
    expect(textOf(unnamed)).not.toContain('(Ada');
    world.discord.pauseMemberRequests(false);
    const voters = mentioned(textOf(unnamed));
    expect(voters.length).toBeGreaterThan(2);

    world.discord.addMembers([
      member({ id: voters[0], username: 'ada', nick: 'Ada **Lovelace**' }),
      member({ id: voters[1], username: 'grace' }),
    ]);
    const handle = asMember(world.discord).command('votes');
    const text = textOf(await handle.waitForMessage());
    expect(text).toContain(`<@${voters[0]}> (Ada \\*\\*Lovelace\\*\\*)`);
    expect(text).toContain(`<@${voters[1]}> (grace)`);
    expect(handle.callbacks[0]?.data.allowed_mentions).toEqual({ parse: [] });
  });

  it('turns the page with one more gateway request at most, and reuses names it has', async () => {
    const first = await asMember(world.discord).command('votes').waitForMessage();
    const before = world.discord.memberRequests;
    const next = buttonIds(first).find((id) => id === 'votes-page:2')!;
    const page2 = await asMember(world.discord).click(first, next).waitForMessage();
    expect(textOf(page2)).toContain('Page 2 of');
    expect(world.discord.memberRequests).toBe(before + 1);
    const back = await asMember(world.discord).click(page2, 'votes-page:1').waitForMessage();
    expect(textOf(back)).toContain(`(Ada \\*\\*Lovelace\\*\\*)`);
    // Page 1's members without a name were asked for again; those with one were not.
    expect(world.discord.memberRequests).toBeLessThanOrEqual(before + 2);
  });
});
