/** Deliveries the way Guilds sends them, for tests and the bench. */

export async function deliver(
  url: string,
  token: string | undefined,
  body: unknown,
  init: { method?: string; raw?: string } = {},
): Promise<number> {
  const response = await fetch(url, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: token }) },
    body: init.method === 'GET' ? undefined : (init.raw ?? JSON.stringify(body)),
  });
  await response.arrayBuffer();
  return response.status;
}

export const reviewEvent = (
  guildId: string,
  review: { id: string; authorId: string; content?: string; rating?: number },
) => ({
  event: 'review',
  guildId,
  id: review.id,
  authorId: review.authorId,
  content: review.content ?? 'Great community, friendly moderators.',
  rating: review.rating ?? 4,
});

/** A vote as Guilds sends it; a vote cast outside Discord (`discord: false`) carries no names. */
export const voteEvent = (
  guildId: string,
  userId: string,
  double = false,
  viaDiscord = true,
  names = { username: 'voter', global_name: 'Voter' },
) => ({
  event: 'vote',
  guildId,
  double,
  user: viaDiscord ? { id: userId, discord: true, ...names } : { id: userId, discord: false },
});

/** Guilds waits this long for an answer before it counts a delivery as failed. */
export const GUILDS_ANSWER_TIMEOUT_MS = 5_000;

export interface GuildsAttempt {
  /** The status, or what went wrong before one came. */
  outcome: number | 'timeout' | 'network';
  /** How long this attempt waited for its answer. */
  ms: number;
}

/**
 * A delivery the way Guilds retries it (docs.guilds.me): each attempt waits 5 s for an answer; a
 * timeout, a network error or a 5xx is tried again after 1 s, doubling, up to 10 tries; anything
 * else ends it (4xx is never retried). Returns every attempt, the last one deciding.
 */
export async function deliverLikeGuilds(
  url: string,
  token: string,
  body: unknown,
  { tries = 10, firstDelayMs = 1_000 } = {},
): Promise<GuildsAttempt[]> {
  const attempts: GuildsAttempt[] = [];
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    let outcome: GuildsAttempt['outcome'];
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: token },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(GUILDS_ANSWER_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      outcome = response.status;
    } catch (error) {
      outcome = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
    }
    attempts.push({ outcome, ms: performance.now() - started });
    const retried = typeof outcome !== 'number' || outcome >= 500;
    if (!retried || attempt >= tries) return attempts;
    await new Promise((resolve) => setTimeout(resolve, firstDelayMs * 2 ** (attempt - 1)));
  }
}

/**
 * Delivers to the first address that answers 200, trying each in turn and again after a short
 * wait, as Guilds retries a delivery through a load balancer in front of several bots. Rejects if
 * none took it within `withinMs`.
 */
export async function deliverToFirstThatTakes(
  urls: readonly string[],
  token: string,
  body: unknown,
  withinMs: number,
): Promise<string> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    for (const url of urls) {
      const status = await deliver(url, token, body).catch(() => undefined);
      if (status === 200) return url;
    }
    if (Date.now() > deadline) throw new Error(`no receiver took a delivery within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
