import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { MessageFlags } from 'discord.js';
import { asMember, textOf } from '../../tools/conversation.js';
import { member, slashCommand, snowflakeAt } from '../../tools/discord-standin/index.js';
import { startWorld, type World } from '../../tools/world.js';

const DEFERRED_REPLY = 5;
const REPLY = 4;
let nextMember = 310_000_000_000_000_000n;
/** A member id no earlier test has checked, so the bot's cache cannot answer for the service. */
const freshMember = () => String(nextMember++);

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

describe('answering within Discord deadline', () => {
  it('answers directly when the service is fast', async () => {
    const handle = asMember(world.discord).command('vote', { member: freshMember() });
    await handle.waitForMessage();
    expect(handle.callbacks.map((c) => c.type)).toEqual([REPLY]);
  });

  it('defers in time when the service takes 2.5 s, then edits the answer in', async () => {
    world.sandbox.setFault('getVote', { latencyMs: 2_500 });
    const handle = asMember(world.discord).command('vote', { member: freshMember() });
    const first = await handle.firstCallback(3_000);
    expect(first.type).toBe(DEFERRED_REPLY);
    expect(first.at - handle.sentAt).toBeLessThan(3_000);
    expect(first.data?.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    const message = await handle.waitForMessage(6_000);
    expect(handle.webhookCalls.some((c) => c.method === 'PATCH' && c.path.endsWith('/messages/@original'))).toBe(true);
    expect(textOf(message)).toMatch(/vote/i);
    expect(handle.rejectedCallbacks).toEqual([]);
  });

  it('defers at once an interaction Discord made 2.2 s before the bot saw it, though the service takes 1 s', async () => {
    world.sandbox.setFault('getVote', { latencyMs: 1_000 });
    const made = new Date(Date.now() - 2_200).toISOString();
    const payload = slashCommand({ name: 'vote', member: member({ id: freshMember() }) });
    const handle = world.discord.sendInteraction({ ...payload, id: snowflakeAt(made) });
    const first = await handle.firstCallback(3_000);
    expect(first.type).toBe(DEFERRED_REPLY);
    // Counted from its dispatch it had 1.8 s; counted from its creation, none was left.
    expect(first.at - handle.sentAt).toBeLessThan(1_200);
    const message = await handle.waitForMessage(6_000);
    expect(textOf(message)).toMatch(/vote/i);
    expect(handle.rejectedCallbacks).toEqual([]);
  });

  it('responds inside 3 s and then gives a final answer while the service fails for 5 s', async () => {
    world.sandbox.setFault('getVote', { status: 503 });
    const handle = asMember(world.discord).command('vote', { member: freshMember() });
    // Not a wait: the fault's five seconds are the scenario, ended by this timer while the test waits
    // on the answer. Cleared when the test ends too: a test that finishes early must not clear the next one's faults.
    const recovery = setTimeout(() => world.sandbox.clearFaults(), 5_000);
    try {
      const first = await handle.firstCallback(3_000);
      expect(first.at - handle.sentAt).toBeLessThan(3_000);
      const message = await handle.waitForMessage(10_000);
      expect(world.sandbox.requestCount('getVote')).toBeGreaterThan(1);
      expect(textOf(message)).not.toMatch(/Something went wrong/);
      expect(handle.rejectedCallbacks).toEqual([]);
    } finally {
      clearTimeout(recovery);
    }
  }, 15_000);
});

describe('failures, each with its own message', () => {
  it('tells the member an administrator must check the credentials on a 401', async () => {
    world.sandbox.setFault('getVote', { status: 401 });
    const message = await asMember(world.discord)
      .command('vote', { member: freshMember(), public: true })
      .waitForMessage();
    expect(textOf(message)).toMatch(/credentials were rejected; an administrator must check them/);
    expect(message.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
  });

  it('says the service is not answering when it keeps failing', async () => {
    world.sandbox.setFault('listVotes', { status: 503 });
    const message = await asMember(world.discord).command('votes').waitForMessage(12_000);
    expect(textOf(message)).toMatch(/The service is not answering; try again shortly/);
  }, 15_000);

  it('gives a reference id, also in the log, when the service answers nonsense', async () => {
    world.sandbox.setFault('getReview', { malformed: true });
    const handle = asMember(world.discord).command('review', { member: freshMember() });
    const message = await handle.waitForMessage();
    const reference = /reference: ([0-9A-F]{8})/.exec(textOf(message))?.[1];
    expect(reference).toBeDefined();
    const logged = await world.bot.waitForLog((l) => l.referenceId === reference);
    expect(logged).toMatchObject({ msg: 'interaction failed', interactionId: handle.id });
    expect(world.sandbox.requestCount('getReview')).toBe(1);
  });

  it('refuses a member option that is not a user id before asking the service', async () => {
    const message = await asMember(world.discord).command('vote', { member: '12' }).waitForMessage();
    expect(world.sandbox.requestCount('getVote')).toBe(0);
    expect(message.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(textOf(message)).toMatch(/Please check your input[\s\S]*snowflake/);
  });
});
