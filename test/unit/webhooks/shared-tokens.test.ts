import { describe, expect, it } from '@jest/globals';
import { SharedTokens } from '../../../src/webhooks/shared-tokens.js';

const A = '111111111111111111';

/** Servers as another process changes them: `stored` is what the shared store holds now. */
function sharedServers() {
  const stored = new Map<string, string>();
  const cached = new Map<string, string>();
  let reads = 0;
  return {
    stored,
    reads: () => reads,
    servers: {
      async reload(guildId: string) {
        reads += 1;
        // The store answers on a later turn, as a real read does: no time is needed for that.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const token = stored.get(guildId);
        if (token === undefined) cached.delete(guildId);
        else cached.set(guildId, token);
      },
      isConfigured: (guildId: string) => cached.has(guildId),
      webhookToken: (guildId: string) => cached.get(guildId),
      takesDeliveries: (guildId: string) => cached.has(guildId),
    },
  };
}

describe('webhook tokens from a shared store', () => {
  it('takes a token made in another process once the one read is older than the fresh time', async () => {
    const world = sharedServers();
    let now = 0;
    const tokens = new SharedTokens(world.servers, { now: () => now, freshMs: 5_000 });
    expect(await tokens.tokenFor(A)).toBeUndefined();
    world.stored.set(A, 'token-made-by-setup-elsewhere');
    now = 4_999;
    expect(await tokens.tokenFor(A)).toBeUndefined();
    now = 5_000;
    expect(await tokens.tokenFor(A)).toBe('token-made-by-setup-elsewhere');
    world.stored.set(A, 'rotated-token');
    now = 10_000;
    expect(await tokens.tokenFor(A)).toBe('rotated-token');
    expect(world.reads()).toBe(3);
  });

  it('reads a server once for deliveries that arrive together', async () => {
    const world = sharedServers();
    world.stored.set(A, 'the-token');
    const tokens = new SharedTokens(world.servers, { now: () => 0 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => tokens.tokenFor(A)));
    expect(new Set(answers)).toEqual(new Set(['the-token']));
    expect(world.reads()).toBe(1);
  });
});
