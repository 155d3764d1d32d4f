import { closedPort } from '../../tools/closed-port.js';
import type { DiscordStandIn, InteractionPayload } from '../../tools/discord-standin/index.js';
import type { Figures, Scenario } from '../context.js';
import { bestStep, climbLadder, ladderText } from '../ladder.js';
import { ackLatencies, drive, percentiles, type Send } from '../load.js';
import { mixedVotes } from '../members.js';
import { LATENCY_RUN } from './latency.js';
import { withBot } from './with-bot.js';

/** The two ways Discord hands the same bot a command, each measured in a fresh `npm start` with INTERACTIONS_PORT. */
export const VOTE_PATHS = ['gateway', 'http'] as const;
export type VotePath = (typeof VOTE_PATHS)[number];
export const VOTE_OVER_HTTP = { serviceMs: 20, lowRate: LATENCY_RUN } as const;

const ENDPOINT_WAIT_MS = 10_000;
const LOW_RATE_WAIT_MS = 5_000;

/**
 * /vote over the gateway against /vote over Discord's Interactions Endpoint URL, in the same bot
 * (`npm start` with INTERACTIONS_PORT; a fresh process per path, so one ladder's overload does not
 * weigh on the other): ack p50/p99 at a low rate, then the throughput scenario's ladder. Over the
 * gateway the ack is the callback reaching the stand-in; over HTTP the response to the signed POST
 * (the inline callback), both stamped by the stand-in from when it sent the interaction. The
 * harness signs each POST with Ed25519 and reads its response, which costs it more CPU than a
 * gateway dispatch: the CPU line of each step shows how much. About 1.5 minutes (the bench runs it
 * again when other processes were busy).
 */
export const voteOverHttpScenario: Scenario = async (ctx, kind) => {
  const figures: Figures = {};
  for (const path of VOTE_PATHS) {
    ctx.sandbox.reset();
    ctx.sandbox.setFault('getVote', { latencyMs: VOTE_OVER_HTTP.serviceMs });
    const payload = mixedVotes(ctx.sandbox);
    const port = await closedPort();
    const env = { INTERACTIONS_PORT: String(port), INTERACTIONS_HOST: '127.0.0.1' };
    const what = `/vote over ${path === 'http' ? 'HTTP' : 'the gateway'}`;
    await withBot(
      ctx,
      kind,
      what,
      async (bot) => {
        const url = `http://127.0.0.1:${port}/interactions`;
        await untilPong(ctx.discord, url);
        const send: Send | undefined = path === 'http' ? overHttp(ctx.discord, url) : undefined;
        const low = await drive(ctx.discord, bot, {
          ...VOTE_OVER_HTTP.lowRate,
          payload,
          waitMs: LOW_RATE_WAIT_MS,
          ...(send ? { send } : {}),
        });
        const [p50, p99] = percentiles(ackLatencies(low.samples), [50, 99]);
        ctx.progress(
          `${what} at ${VOTE_OVER_HTTP.lowRate.rate}/s: ack p50 ${p50!.toFixed(1)} p99 ${p99!.toFixed(1)} ms`,
        );
        bot.drainLogs();
        const offset = low.samples.length;
        const steps = await climbLadder(ctx, bot, {
          what,
          payload: (i) => payload(offset + i),
          ...(send ? { send } : {}),
        });
        const best = bestStep(steps);
        ctx.note(
          `${what} (npm start with INTERACTIONS_PORT), ${VOTE_OVER_HTTP.lowRate.count} at ${VOTE_OVER_HTTP.lowRate.rate}/s: ack p50 ${p50!.toFixed(1)} ms, p99 ${p99!.toFixed(1)} ms; ladder: ${ladderText(steps)}.`,
        );
        Object.assign(figures, {
          [`voteHttp.${path}.p50`]: p50!,
          [`voteHttp.${path}.p99`]: p99!,
          [`voteHttp.${path}.offered`]: best?.offered ?? 0,
          [`voteHttp.${path}.achieved`]: best?.achieved ?? 0,
        });
      },
      'info',
      env,
    );
  }
  return figures;
};

/**
 * Signed POSTs to the endpoint, as Discord sends them. A POST that fails outright (refused
 * connection, reset) leaves its interaction unanswered, as Discord would show it.
 */
function overHttp(discord: DiscordStandIn, url: string): Send {
  return (payload: InteractionPayload) => {
    const handle = discord.sendInteractionHttp(url, payload);
    handle.answered.catch(() => undefined);
    return handle;
  };
}

/** The bot is ready on the gateway before its endpoint may be listening: a signed PING answered PONG says it is. */
async function untilPong(discord: DiscordStandIn, url: string): Promise<void> {
  const ping = JSON.stringify({ type: 1, id: '1300000000000000001', application_id: '1', token: 'ping', version: 1 });
  const until = performance.now() + ENDPOINT_WAIT_MS;
  for (;;) {
    const answer = await discord.postSigned(url, ping).catch(() => undefined);
    if (answer?.status === 200) return;
    if (performance.now() > until)
      throw new Error(`the interactions endpoint at ${url} did not answer a signed PING within ${ENDPOINT_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
