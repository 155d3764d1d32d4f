import type { DiscordStandIn, InteractionHandle, InteractionPayload, Message } from '../tools/discord-standin/index.js';
import type { BenchBot } from './bots.js';

/** What happened to one interaction, in the stand-in's clock (epoch ms). */
export interface Sample {
  id: string;
  sentAt: number;
  /** The first callback the stand-in accepted. */
  ackAt: number | undefined;
  /** The bot's first callback attempt, accepted or refused (a refusal past 3 s is 10062). */
  firstAttemptAt: number | undefined;
  refusedLate: boolean;
  /** With `until: 'answer'`: whether the member's visible answer is the one expected (the vote, unless `expected` says otherwise) or something else (an error). */
  answer?: 'expected' | 'other' | 'none';
  /** With `until: 'answer'`: when the answer became visible (the reply, or the last accepted edit of @original). */
  answeredAt?: number;
}

export interface Run {
  samples: Sample[];
  /** From the first send to the last answer (or give-up). */
  wallMs: number;
}

/** Hands one interaction to the bot, as Discord would: over the gateway, or signed to its endpoint URL. */
export type Send = (payload: InteractionPayload) => InteractionHandle;

export interface LoadOptions {
  count: number;
  payload: (index: number) => InteractionPayload;
  /** Over the gateway (`discord.sendInteraction`) unless given. */
  send?: Send;
  /** Open loop: interactions per second, whatever the bot does; Infinity sends all at once. */
  rate?: number;
  /** Closed loop: at most this many unanswered at a time. */
  concurrency?: number;
  /** How long to wait before calling an interaction unanswered. */
  waitMs: number;
  /** Wait for the first callback (default), or for the answer the member finally sees. */
  until?: 'ack' | 'answer';
  /** With `until: 'answer'`: the answer the member should see; the /vote embed unless given. */
  expected?: (message: Message) => boolean;
  /** Called every `everyCount` answers, e.g. to read memory at 10k. */
  milestone?: { everyCount: number; run: (answered: number) => void };
}

const TICK_MS = 5;
const DISCORD_DEADLINE_MS = 3000;

const LOADING = 128;
const VOTE_TITLES = new Set(['Vote active', 'No active vote']);

const refused = (handle: InteractionHandle) => handle.rejectedCallbacks.length > 0;
const acknowledged = (handle: InteractionHandle) => handle.callbacks.length > 0 || refused(handle);
const visible = (handle: InteractionHandle) => {
  const message = handle.message();
  return message !== undefined && (message.flags & LOADING) === 0;
};
const answered = (handle: InteractionHandle) => visible(handle) || refused(handle);

const isVote = (message: Message) => VOTE_TITLES.has(String(message.embeds[0]?.title));

function answerOf(handle: InteractionHandle, expected: (message: Message) => boolean): Sample['answer'] {
  if (!visible(handle)) return 'none';
  return expected(handle.message()!) ? 'expected' : 'other';
}

/** A deferred answer becomes visible with an edit of @original; an immediate one with the reply itself. */
function answeredAtOf(handle: InteractionHandle): number | undefined {
  if (!visible(handle)) return undefined;
  const edits = handle.webhookCalls.filter(
    (call) => call.method === 'PATCH' && call.status < 300 && call.path.endsWith('/messages/@original'),
  );
  return edits.at(-1)?.at ?? handle.callbacks[0]?.at;
}

function sampleOf(handle: InteractionHandle, expected: ((message: Message) => boolean) | undefined): Sample {
  const ackAt = handle.callbacks[0]?.at;
  const refusedAt = handle.rejectedCallbacks[0]?.at;
  const attempts = [ackAt, refusedAt].filter((at): at is number => at !== undefined);
  return {
    id: handle.id,
    sentAt: handle.sentAt,
    ackAt,
    firstAttemptAt: attempts.length > 0 ? Math.min(...attempts) : undefined,
    refusedLate: handle.rejectedCallbacks.some((c) => c.code === 10062),
    ...(expected ? { answer: answerOf(handle, expected), answeredAt: answeredAtOf(handle) } : {}),
  };
}

/**
 * Sends `count` interactions through the stand-in and waits for each one's first callback. Stops
 * waiting at once if the bot process dies (its remaining interactions count as unanswered).
 */
export function drive(discord: DiscordStandIn, bot: BenchBot, options: LoadOptions): Promise<Run> {
  const { count, payload, waitMs } = options;
  const withAnswer = options.until === 'answer';
  const send = options.send ?? ((p: InteractionPayload) => discord.sendInteraction(p));
  const expected = withAnswer ? (options.expected ?? isVote) : undefined;
  const samples: Sample[] = [];
  const giveUps = new Set<() => void>();
  let sent = 0;
  let done = 0;
  const started = performance.now();

  return new Promise<Run>((resolve) => {
    const finish = () => resolve({ samples, wallMs: performance.now() - started });
    const settle = (handle: InteractionHandle) => {
      samples.push(sampleOf(handle, expected));
      done += 1;
      if (options.milestone && done % options.milestone.everyCount === 0) options.milestone.run(done);
      if (done === count) finish();
      else if (options.concurrency !== undefined) sendUpTo(Math.min(count, done + options.concurrency));
    };
    const sendOne = () => {
      const handle = send(payload(sent));
      sent += 1;
      if (!bot.alive) return void queueMicrotask(() => settle(handle));
      let settled = false;
      const once = () => {
        if (settled) return;
        settled = true;
        giveUps.delete(once);
        settle(handle);
      };
      giveUps.add(once);
      handle.waitFor(withAnswer ? answered : acknowledged, waitMs).then(once, once);
    };
    const sendUpTo = (target: number) => {
      while (sent < target) sendOne();
    };
    bot.onExit(() => {
      for (const giveUp of [...giveUps]) giveUp();
    });

    if (options.concurrency !== undefined) return sendUpTo(Math.min(count, options.concurrency));
    const rate = options.rate ?? Infinity;
    if (!Number.isFinite(rate)) return sendUpTo(count);
    const tick = () => {
      sendUpTo(Math.min(count, Math.floor(((performance.now() - started) * rate) / 1000) + 1));
      if (sent < count) setTimeout(tick, TICK_MS);
    };
    tick();
  });
}

/** Ack latency: interaction sent → the bot's first callback attempt; unanswered is Infinity. */
export function ackLatencies(samples: readonly Sample[]): number[] {
  return samples.map((s) => (s.firstAttemptAt === undefined ? Infinity : s.firstAttemptAt - s.sentAt));
}

/** Interactions Discord would show as failed: no accepted callback within 3 s. */
export function lateCount(samples: readonly Sample[]): number {
  return samples.filter((s) => s.ackAt === undefined || s.ackAt - s.sentAt > DISCORD_DEADLINE_MS).length;
}

/** Nearest-rank percentiles, e.g. percentiles(xs, [50, 99]) → [p50, p99]. */
export function percentiles(values: readonly number[], ps: readonly number[]): number[] {
  const sorted = Float64Array.from(values).sort();
  return ps.map((p) =>
    sorted.length === 0
      ? Number.NaN
      : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!,
  );
}
