import { describe, expect, it } from '@jest/globals';
import { countsGlobally } from '../../../src/rest-proxy/admission.js';
import { Pacer } from '../../../src/rest-proxy/pacer.js';

describe('the REST proxy pacer', () => {
  it('gives requests turns one interval apart, and a request after a quiet spell goes at once', () => {
    let now = 10_000;
    const pacer = new Pacer(25, () => now);
    // REST's window hands over its 25 at once: the pacer spreads them over the second.
    const waits = Array.from({ length: 25 }, () => pacer.reserve());
    expect(waits).toEqual(Array.from({ length: 25 }, (_, i) => i * 40));
    now += 500;
    expect(pacer.reserve()).toBe(500);
    now += 2_000;
    expect(pacer.reserve()).toBe(0);
    expect(pacer.reserve()).toBe(40);
  });

  it('keeps any second of turns at N + 1 or fewer, whatever the arrivals', () => {
    let now = 0;
    const pacer = new Pacer(25, () => now);
    const sentAt: number[] = [];
    for (const burst of [25, 25, 3, 40, 25]) {
      for (let i = 0; i < burst; i += 1) sentAt.push(now + pacer.reserve());
      now += 1_000;
    }
    const busiest = Math.max(...sentAt.map((from) => sentAt.filter((t) => t >= from && t < from + 1_000).length));
    expect(busiest).toBeLessThanOrEqual(26);
    expect(sentAt).toHaveLength(118);
  });

  it('rejects a wait as an AbortError when its caller hangs up', async () => {
    const pacer = new Pacer(1);
    await pacer.turn();
    const hangUp = new AbortController();
    const waiting = pacer.turn(hangUp.signal);
    hangUp.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('what counts against the global limit', () => {
  it("is a bot's request, not an interaction's callback or webhook, nor one with no token", () => {
    expect(countsGlobally('/channels/1/messages', 'Bot abc')).toBe(true);
    expect(countsGlobally('/interactions/1/tok/callback', undefined)).toBe(false);
    expect(countsGlobally('/webhooks/1/tok/messages/@original', undefined)).toBe(false);
    expect(countsGlobally('/channels/1/messages', undefined)).toBe(false);
  });
});
