import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

let discord: DiscordStandIn;
beforeAll(async () => {
  discord = await startDiscordStandIn();
});
afterAll(() => discord?.close());

const post = (content: string) =>
  fetch(`${discord.apiUrl}/v10/channels/${discord.channelId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bot ${discord.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  });

describe("the stand-in's per-channel message limit", () => {
  it('lets 5 messages through in 5 s with bucket headers, then answers 429 with retry_after', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await post(`message ${i}`));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers.slice(0, 5).map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    const limited = answers[5]!;
    expect(limited.headers.get('x-ratelimit-bucket')).toBe(answers[0]!.headers.get('x-ratelimit-bucket'));
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await limited.json()) as { retry_after: number; global: boolean };
    expect(body.global).toBe(false);
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(5);
    expect(discord.rateLimitedRequests).toBe(1);
    expect(discord.channelMessages(discord.channelId).map((m) => m.content)).not.toContain('message 5');
  });
});
