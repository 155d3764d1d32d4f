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
export const voteEvent = (guildId: string, userId: string, double = false, viaDiscord = true) => ({
  event: 'vote',
  guildId,
  double,
  user: viaDiscord
    ? { id: userId, discord: true, username: 'voter', global_name: 'Voter' }
    : { id: userId, discord: false },
});

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
