import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  buttonClick,
  member,
  modalSubmit,
  MODERATOR_PERMISSIONS,
  OptionType,
  slashCommand,
  type InteractionHandle,
  type MemberPayload,
  type Message,
} from '../../tools/discord-standin/index.js';
import { buttonIds, textOf } from '../../tools/conversation.js';
import { startWorld, type World } from '../../tools/world.js';
import { CRITIC, CRITIC_REVIEW, NOBODY, VOTER, VOTER_REVIEW } from '../../tools/seed.js';
import { clockSteps } from '../support/clock-steps.js';

/*
 * Fault drills: the built bot against the sandbox with a fault injected, driven through the
 * Discord stand-in. Each drill asserts outcomes, never times: every interaction is answered
 * exactly once, the process stays up, no reply is posted twice, and answers are normal again
 * once the fault ends.
 */

const REVIEWS: Record<string, string> = { [VOTER]: VOTER_REVIEW, [CRITIC]: CRITIC_REVIEW };

const NOT_ANSWERING = /not answering; try again shortly/;
const MAYBE_POSTED = /may or may not have been posted/;
const CREDENTIALS = /credentials were rejected; an administrator must check them/;
const ANY_FAILURE = /not answering|may or may not|credentials were rejected|went wrong|Reference:/;

/** Short timeouts and no cache, so each drill reaches the service and ends in seconds. */
const DRILL_ENV = { SERVICE_TIMEOUT_MS: '1000', SERVICE_BUDGET_MS: '4000', SERVICE_CACHE_TTL_SECONDS: '0' };
/** Long enough for a call that spends its whole budget and is then deferred and edited. */
const ANSWER_WAIT_MS = 15_000;

function replyButtonId(message: Message): string {
  const id = buttonIds(message).find((c) => c.startsWith('review-reply:'));
  if (!id) throw new Error(`no Reply button on the message: ${JSON.stringify(message.components)}`);
  return id;
}

/** A member acting in the stand-in; every interaction is kept so the drill can check all of them. */
class Drill {
  readonly handles: InteractionHandle[] = [];
  readonly moderator = member({ permissions: MODERATOR_PERMISSIONS });

  constructor(private readonly world: World) {}

  private send(handle: InteractionHandle): InteractionHandle {
    this.handles.push(handle);
    return handle;
  }

  vote(userId?: string, who: MemberPayload = member()): InteractionHandle {
    const options = userId ? [{ name: 'member', type: OptionType.User, value: userId }] : undefined;
    return this.send(this.world.discord.sendInteraction(slashCommand({ name: 'vote', member: who, options })));
  }

  review(userId: string, who: MemberPayload = member()): InteractionHandle {
    const options = [{ name: 'member', type: OptionType.User, value: userId }];
    return this.send(this.world.discord.sendInteraction(slashCommand({ name: 'review', member: who, options })));
  }

  async answer(handle: InteractionHandle): Promise<string> {
    return textOf(await handle.waitForMessage(ANSWER_WAIT_MS));
  }

  /** /review as a moderator, answered normally: the message with the Reply button. */
  async reviewMessage(userId: string): Promise<Message> {
    const message = await this.review(userId, this.moderator).waitForMessage(ANSWER_WAIT_MS);
    expect(textOf(message)).not.toMatch(ANY_FAILURE);
    return message;
  }

  /** Reply → the form opens → submit; resolves with what the moderator reads. */
  async reply(reviewMessage: Message, reviewId: string, content: string): Promise<string> {
    const click = this.send(
      this.world.discord.sendInteraction(
        buttonClick({ customId: replyButtonId(reviewMessage), message: reviewMessage, member: this.moderator }),
      ),
    );
    const modal = await click.waitForModal();
    expect(modal.custom_id).toBe(`review-reply-submit:${reviewId}`);
    const submit = this.send(
      this.world.discord.sendInteraction(
        modalSubmit({
          customId: `review-reply-submit:${reviewId}`,
          fields: { 'reply-content': content },
          selects: { 'reply-pinned': ['no'] },
          member: this.moderator,
          message: reviewMessage,
        }),
      ),
    );
    const answer = await submit.waitForMessage(ANSWER_WAIT_MS);
    // The modal flow answers by updating the review and confirming in a follow-up, or with an error.
    await this.world.bot.waitForLog(
      (l) => l.msg === 'interaction handled' && l.interactionId === submit.id,
      ANSWER_WAIT_MS,
    );
    return [answer, ...submit.followUps()].map(textOf).join('\n');
  }

  /** After the fault (and the circuit's cool-down, if it opened): a /vote answered normally. */
  async recovered(): Promise<void> {
    const text = await this.answer(this.vote(VOTER));
    expect(text).not.toMatch(ANY_FAILURE);
    expect(text).toContain(`<@${VOTER}>`);
  }

  /**
   * When the open circuit lets a trial call through again, at the latest, in wall-clock time: read
   * from the bot's log of its answer to `handle` ("paused for another N s", N rounded up).
   */
  async circuitClosesBy(handle: InteractionHandle): Promise<number> {
    const line = await this.world.bot.waitForLog(
      (l) => l.interactionId === handle.id && l.reason === 'circuit_open',
      ANSWER_WAIT_MS,
      'the circuit refusing a call',
    );
    const seconds = /paused for another (\d+) s/.exec(JSON.stringify(line.err))?.[1];
    expect(seconds).toBeDefined();
    return Date.parse(String(line.time)) + Number(seconds) * 1000;
  }

  /**
   * Every interaction of the drill answered and finished, each acknowledged exactly once (no
   * second reply, nothing Discord refused), and the process still up with a clean stderr.
   */
  async settle(): Promise<void> {
    for (const handle of this.handles) {
      await handle.waitForResponse(ANSWER_WAIT_MS);
      await this.world.bot.waitForLog(
        (l) => l.msg === 'interaction handled' && l.interactionId === handle.id,
        ANSWER_WAIT_MS,
        `handling of ${handle.id}`,
      );
    }
    for (const handle of this.handles) {
      expect({ id: handle.id, callbacks: handle.callbacks.length, rejected: handle.rejectedCallbacks }).toEqual({
        id: handle.id,
        callbacks: 1,
        rejected: [],
      });
      expect(handle.webhookCalls.filter((call) => call.status >= 400)).toEqual([]);
    }
    expect(this.world.bot.child.exitCode).toBeNull();
    expect(
      this.world.bot.logs.filter((l) => l.msg === 'uncaught exception' || l.msg === 'unhandled rejection'),
    ).toEqual([]);
    expect(this.world.bot.stderr()).toBe('');
  }
}

// One bot for every drill: each ends with the service back and a call that succeeds, so no drill's
// failures are counted towards the circuit in the next; the sandbox is reset between them. Its
// monotonic clock is the test's to move: the breaker's cool-down passes without being waited out.
let world: World;
const clock = clockSteps();
/** The bot's clocks (monotonic, wall) may differ by a little over seconds; log times are whole ms. */
const CLOCK_MARGIN_MS = 100;
beforeAll(async () => {
  world = await startWorld({ env: { ...DRILL_ENV, ...clock.env } });
});
afterEach(() => {
  world.sandbox.reset();
});
afterAll(async () => {
  await world?.close();
  clock.remove();
});

describe('fault drill: the service answers 500 for ten seconds', () => {
  it('tells members the service is not answering, opens the circuit, and answers normally after recovery; the reply is never doubled', async () => {
    const drill = new Drill(world);
    const reviewId = REVIEWS[CRITIC]!;
    const reviewMessage = await drill.reviewMessage(CRITIC);
    const repliesBefore = world.sandbox.repliesTo(reviewId).length;

    world.sandbox.setFault('*', { status: 500 });
    const faultStarted = Date.now();

    // A moderator replies during the outage: the POST is not retried, and the outcome is unknown.
    expect(await drill.reply(reviewMessage, reviewId, 'Thanks for the feedback during the outage.')).toMatch(
      MAYBE_POSTED,
    );

    // Members keep asking: each call retries, spends its attempts and fails.
    const wave = [
      drill.vote(VOTER),
      drill.vote(NOBODY),
      drill.vote(),
      drill.review(VOTER),
      drill.review(CRITIC),
      drill.review(NOBODY),
    ];
    for (const handle of wave) expect(await drill.answer(handle)).toMatch(NOT_ANSWERING);

    // Seven failed calls in a row open the circuit: the next ones fail fast without a request.
    const requestsWhileOpen = world.sandbox.requestCount();
    const whileOpen = [drill.vote(VOTER), drill.review(CRITIC)];
    for (const handle of whileOpen) expect(await drill.answer(handle)).toMatch(NOT_ANSWERING);
    expect(world.sandbox.requestCount()).toBe(requestsWhileOpen);
    const closesBy = await drill.circuitClosesBy(whileOpen[0]!);

    // The rest of the ten seconds passes on the bot's clock, and the fault ends.
    const outageLeft = Math.max(0, 10_000 - (Date.now() - faultStarted));
    await clock.forward(world.bot, outageLeft);
    world.sandbox.clearFaults();
    // So does the rest of the breaker's cool-down (15 s by default, no setting for it); then a trial call closes it.
    await clock.forward(world.bot, closesBy - Date.now() - outageLeft + CLOCK_MARGIN_MS);
    await drill.recovered();
    expect(await drill.answer(drill.review(NOBODY))).not.toMatch(ANY_FAILURE);

    // The reply was never posted twice; sent again by the moderator once the service is back, it posts once.
    expect(world.sandbox.repliesTo(reviewId).length - repliesBefore).toBeLessThanOrEqual(1);
    const fresh = await drill.reviewMessage(CRITIC);
    const again = await drill.reply(fresh, reviewId, 'Thanks for the feedback during the outage.');
    expect(again).not.toMatch(ANY_FAILURE);
    expect(world.sandbox.repliesTo(reviewId).length - repliesBefore).toBe(1);

    await drill.settle();
  }, 30_000);
});

describe('fault drills against one bot', () => {
  // Each drill fails fewer than five calls in a row (the breaker's threshold) and ends with a
  // success, so one drill's failures never open the circuit for the next.

  it('connection resets: members are told the service is not answering, the moderator that the reply may or may not be posted', async () => {
    const drill = new Drill(world);
    const reviewId = REVIEWS[VOTER]!;
    const reviewMessage = await drill.reviewMessage(VOTER);

    world.sandbox.setFault('*', { reset: true });
    expect(await drill.reply(reviewMessage, reviewId, 'Reset drill reply.')).toMatch(MAYBE_POSTED);
    for (const handle of [drill.vote(NOBODY), drill.review(CRITIC)])
      expect(await drill.answer(handle)).toMatch(NOT_ANSWERING);
    // The POST was sent once and never again by the bot itself.
    expect(world.sandbox.requests.filter((r) => r.route === 'postReply').length).toBe(1);
    expect(world.sandbox.repliesTo(reviewId).length).toBeLessThanOrEqual(1);

    world.sandbox.clearFaults();
    await drill.recovered();
    expect(await drill.reply(await drill.reviewMessage(VOTER), reviewId, 'Reset drill reply.')).not.toMatch(
      ANY_FAILURE,
    );
    expect(world.sandbox.repliesTo(reviewId).length).toBe(1);
    await drill.settle();
  }, 30_000);

  it('a 429 storm with Retry-After: 1: members are told to try again, the service is not hammered, a rate-limited reply posts once', async () => {
    const drill = new Drill(world);
    const reviewId = REVIEWS[CRITIC]!;
    const reviewMessage = await drill.reviewMessage(CRITIC);

    const before = {
      getVote: world.sandbox.requestCount('getVote'),
      getReview: world.sandbox.requestCount('getReview'),
    };
    world.sandbox.setFault('*', { status: 429, retryAfter: '1' });
    // Retries spent ("not answering"), or the next wait past the call's budget ("slow down"): both say try again.
    for (const handle of [drill.vote(NOBODY), drill.review(VOTER)])
      expect(await drill.answer(handle)).toMatch(
        /not answering; try again shortly|asked the bot to slow down; try again/,
      );
    // At most the first attempt and three retries per call, each after the wait the service asked for.
    expect(world.sandbox.requestCount('getVote') - before.getVote).toBeLessThanOrEqual(4);
    expect(world.sandbox.requestCount('getReview') - before.getReview).toBeLessThanOrEqual(4);

    // The storm passes while a call waits: two 429s, then the answer.
    world.sandbox.setFault('*', { status: 429, retryAfter: '1', times: 2 });
    expect(await drill.answer(drill.vote(VOTER))).toContain(`<@${VOTER}>`);
    // A 429 proves the reply was refused before it was acted on, so the bot may send it again.
    world.sandbox.setFault('postReply', { status: 429, retryAfter: '1', times: 1 });
    expect(await drill.reply(reviewMessage, reviewId, '429 drill reply.')).not.toMatch(ANY_FAILURE);
    expect(world.sandbox.requests.filter((r) => r.route === 'postReply').length).toBe(2);
    expect(world.sandbox.repliesTo(reviewId).length).toBe(1);

    world.sandbox.clearFaults();
    await drill.recovered();
    await drill.settle();
  }, 30_000);

  it('malformed JSON: the member gets an answer with a reference that is in the log, and a reply is reported as maybe posted', async () => {
    const drill = new Drill(world);
    const reviewId = REVIEWS[VOTER]!;
    const reviewMessage = await drill.reviewMessage(VOTER);

    world.sandbox.setFault('*', { malformed: true });
    for (const handle of [drill.vote(VOTER), drill.review(CRITIC)]) {
      const text = await drill.answer(handle);
      const reference = /Reference: ([0-9A-F]{8})/.exec(text)?.[1];
      expect(reference).toBeDefined();
      await world.bot.waitForLog((l) => l.referenceId === reference && l.msg === 'interaction failed');
    }
    expect(await drill.reply(reviewMessage, reviewId, 'Malformed drill reply.')).toMatch(MAYBE_POSTED);
    expect(world.sandbox.repliesTo(reviewId).length).toBeLessThanOrEqual(1);

    world.sandbox.clearFaults();
    await drill.recovered();
    await drill.settle();
  }, 30_000);

  it('401: members and moderators are told the credentials were rejected', async () => {
    const drill = new Drill(world);
    const reviewId = REVIEWS[CRITIC]!;
    const reviewMessage = await drill.reviewMessage(CRITIC);

    world.sandbox.setFault('*', { status: 401 });
    for (const handle of [drill.vote(VOTER), drill.vote(), drill.review(VOTER)])
      expect(await drill.answer(handle)).toMatch(CREDENTIALS);
    expect(await drill.reply(reviewMessage, reviewId, '401 drill reply.')).toMatch(CREDENTIALS);
    expect(world.sandbox.repliesTo(reviewId).length).toBe(0);

    world.sandbox.clearFaults();
    await drill.recovered();
    await drill.settle();
  }, 30_000);

  it('responses that trickle: slow but in time is a normal answer; too slow is "not answering", and a reply stored before the timeout is not sent again', async () => {
    const drill = new Drill(world);
    const reviewId = REVIEWS[VOTER]!;
    const reviewMessage = await drill.reviewMessage(VOTER);

    // A byte every 2 ms: a few hundred ms for a body, inside the per-attempt timeout.
    world.sandbox.setFault('*', { trickleMs: 2 });
    expect(await drill.answer(drill.vote(VOTER))).toContain(`<@${VOTER}>`);

    // A byte every 200 ms: no attempt completes; the sandbox stores the reply before it trickles.
    world.sandbox.setFault('*', { trickleMs: 200 });
    for (const handle of [drill.vote(NOBODY), drill.review(CRITIC)])
      expect(await drill.answer(handle)).toMatch(NOT_ANSWERING);
    expect(await drill.reply(reviewMessage, reviewId, 'Trickle drill reply.')).toMatch(MAYBE_POSTED);
    expect(world.sandbox.requests.filter((r) => r.route === 'postReply').length).toBe(1);
    expect(world.sandbox.repliesTo(reviewId).length).toBe(1);

    world.sandbox.clearFaults();
    await drill.recovered();
    await drill.settle();
  }, 30_000);

  it('the gateway drops mid-traffic: interactions in flight finish, those sent while it is down are answered after the resume', async () => {
    const drill = new Drill(world);
    const resumes = world.discord.resumes;
    world.sandbox.setFault('*', { latencyMs: 500 });
    const inFlight = [drill.vote(VOTER), drill.vote(NOBODY), drill.review(CRITIC)];
    await world.discord.waitUntil(() => world.sandbox.requestCount() >= 3, 5_000, 'three service calls in flight');

    world.discord.dropGateway();
    const whileDown = [drill.vote(VOTER), drill.review(VOTER), drill.vote()];
    await world.discord.waitForResume(resumes + 1, 15_000);

    for (const handle of [...inFlight, ...whileDown]) expect(await drill.answer(handle)).not.toMatch(ANY_FAILURE);
    expect(world.discord.gatewaySessions).toBe(1);

    world.sandbox.clearFaults();
    await drill.recovered();
    await drill.settle();
  }, 30_000);
});
