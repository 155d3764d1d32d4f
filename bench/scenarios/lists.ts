import { LIST_SITES, type AdaptedSiteId } from '../../src/lists/index.js';
import { tokenMatches } from '../../src/webhooks/token.js';
import { nextSnowflake } from '../../tools/discord-standin/index.js';
import { voteEvent } from '../../tools/guilds-webhook.js';
import type { Request } from '../../tools/list-senders/attempts.js';
import { requestAs, sampleSecrets } from '../../tools/list-senders/send.js';
import { label, type BenchContext, type Figures, type Scenario } from '../context.js';
import { percentiles } from '../load.js';
import { BENCH_WEBHOOK_TOKEN, benchReceiverEnv } from '../receiver-env.js';
import { withBot } from './with-bot.js';

// Issue 34: a signed Top.gg delivery must be taken as fast as a Guilds one. Each rate is held for
// `stepMs`; a site's figure is the highest rate at which every delivery got its 200 with p99 under
// the goal, the same goal the scale scenario's ingest has.
export const LISTS_RUN = {
  rates: [100, 200, 400, 800, 1_600],
  stepMs: 2_000,
  p99UnderMs: 50,
  mixRate: 200,
  mixMs: 5_000,
  /** Verifications timed in-process for the cost per delivery. */
  verifications: 20_000,
} as const;

/** The bench server's listing on each list besides Guilds. */
export const SECRETS = sampleSecrets('bench');
const SITES = Object.keys(SECRETS) as AdaptedSiteId[];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Site = AdaptedSiteId | 'guilds';

/** One delivery of a member's vote (a new member unless given), as `site` sends it to the bot at `base`. */
export function deliveryOf(site: Site, base: string, guildId: string, memberId = nextSnowflake()): Request {
  if (site === 'guilds')
    return {
      url: base,
      headers: { authorization: BENCH_WEBHOOK_TOKEN },
      body: JSON.stringify(voteEvent(guildId, memberId)),
    };
  return requestAs(site, { url: `${base}/${site}`, secret: SECRETS[site], vote: { guildId, memberId } });
}

/** Sends the requests at `rate` a second (open loop); each one's time to a 200, Infinity for anything else. */
export async function paced(requests: readonly Request[], rate: number): Promise<number[]> {
  const started = performance.now();
  return Promise.all(
    requests.map(async ({ url, headers, body }, i) => {
      await sleep(Math.max(0, started + (i * 1000) / rate - performance.now()));
      const sentAt = performance.now();
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
          signal: AbortSignal.timeout(5_000),
        });
        await response.arrayBuffer();
        return response.status === 200 ? performance.now() - sentAt : Infinity;
      } catch {
        return Infinity;
      }
    }),
  );
}

/** The highest rate taken whole within the goal, stepping up until a step misses it. */
async function highestRate(ctx: BenchContext, site: Site, base: string): Promise<number> {
  let best = 0;
  for (const rate of LISTS_RUN.rates) {
    const requests = Array.from({ length: (rate * LISTS_RUN.stepMs) / 1000 }, () =>
      deliveryOf(site, base, ctx.discord.guildId),
    );
    const times = await paced(requests, rate);
    const [p99] = percentiles(times, [99]);
    const taken = times.filter(Number.isFinite).length;
    ctx.progress(`lists: ${site} at ${rate}/s: ${taken} of ${times.length} taken, 200 p99 ${p99!.toFixed(1)} ms`);
    if (taken < times.length || p99! >= LISTS_RUN.p99UnderMs) break;
    best = rate;
    // The announcements of one step are posted before the next step's deliveries arrive.
    await sleep(1_000);
  }
  return best;
}

/** Microseconds per check, in this process: Top.gg's HMAC over a vote's body, and Guilds' token compare. */
function checkCosts(guildId: string): { hmacUs: number; tokenUs: number } {
  const topgg = LIST_SITES.topgg;
  const request = requestAs('topgg', {
    url: 'http://127.0.0.1/',
    secret: SECRETS.topgg,
    vote: { guildId, memberId: nextSnowflake() },
  });
  const delivery = { headers: request.headers, rawBody: Buffer.from(request.body) };
  const time = (check: () => boolean) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < LISTS_RUN.verifications; i++) if (!check()) throw new Error('a check failed in the bench');
    return Number(process.hrtime.bigint() - started) / 1000 / LISTS_RUN.verifications;
  };
  // Warm both up first, so neither figure carries the first call's compilation.
  time(() => topgg.verify(delivery, SECRETS.topgg, Date.now()).ok);
  time(() => tokenMatches(BENCH_WEBHOOK_TOKEN, BENCH_WEBHOOK_TOKEN));
  return {
    hmacUs: time(() => topgg.verify(delivery, SECRETS.topgg, Date.now()).ok),
    tokenUs: time(() => tokenMatches(BENCH_WEBHOOK_TOKEN, BENCH_WEBHOOK_TOKEN)),
  };
}

/**
 * Every list's deliveries into one bot from `.env` (Guilds at WEBHOOK_PATH, each list at
 * WEBHOOK_PATH/<site>): how fast Guilds' and Top.gg's are taken, and the 200 of a mix of all six.
 */
export const listsScenario: Scenario = async (ctx, kind) => {
  ctx.sandbox.reset();
  const secrets = Object.fromEntries(SITES.map((site) => [`LISTING_${site.toUpperCase()}_SECRET`, SECRETS[site]]));
  const { url, env } = await benchReceiverEnv(ctx, { VOTE_POLL_SECONDS: '0', ...secrets });
  const costs = checkCosts(ctx.discord.guildId);
  return withBot(
    ctx,
    kind,
    'deliveries from every list',
    async (): Promise<Figures> => {
      const guildsRate = await highestRate(ctx, 'guilds', url);
      const topggRate = await highestRate(ctx, 'topgg', url);
      const all: Site[] = ['guilds', ...SITES];
      const count = (LISTS_RUN.mixRate * LISTS_RUN.mixMs) / 1000;
      const mix = Array.from({ length: count }, (_, i) => deliveryOf(all[i % all.length]!, url, ctx.discord.guildId));
      const times = await paced(mix, LISTS_RUN.mixRate);
      const [p50, p99] = percentiles(times, [50, 99]);
      const refused = times.filter((t) => !Number.isFinite(t)).length;
      ctx.progress(
        `lists ${label(kind)}: Guilds taken up to ${guildsRate}/s, Top.gg (signed) up to ${topggRate}/s; check per delivery: HMAC ${costs.hmacUs.toFixed(1)} µs, token ${costs.tokenUs.toFixed(1)} µs; mix of ${all.length} lists at ${LISTS_RUN.mixRate}/s: 200 p50 ${p50!.toFixed(1)} p99 ${p99!.toFixed(1)} ms, not taken ${refused}`,
      );
      return {
        'lists.guildsRate': guildsRate,
        'lists.topggRate': topggRate,
        'lists.hmacUs': costs.hmacUs,
        'lists.tokenUs': costs.tokenUs,
        'lists.mixP99': p99!,
        'lists.mixRefused': refused,
      };
    },
    'info',
    env,
  );
};
