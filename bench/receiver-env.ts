import { closedPort } from '../tools/closed-port.js';
import type { BenchContext } from './context.js';

/** The webhook token bench bots are given and deliveries carry. */
export const BENCH_WEBHOOK_TOKEN = 'bench-webhook-token-0123456789';

/** Settings that turn a bench bot's webhook receiver on, posting to the stand-in's channel, and its URL. */
export async function benchReceiverEnv(
  ctx: BenchContext,
  extra: Record<string, string> = {},
): Promise<{ url: string; env: Record<string, string> }> {
  const port = await closedPort();
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    env: {
      WEBHOOK_PORT: String(port),
      WEBHOOK_HOST: '127.0.0.1',
      WEBHOOK_TOKEN: BENCH_WEBHOOK_TOKEN,
      REVIEW_CHANNEL_ID: ctx.discord.channelId,
      VOTE_CHANNEL_ID: ctx.discord.channelId,
      ...extra,
    },
  };
}
