import { describe, expect, it } from '@jest/globals';
import { webhookTargets } from '../../../src/webhooks/targets.js';

const A = '111111111111111111';
const SINGLE = '222222222222222222';
const many = webhookTargets({ path: '/webhook', serverToken: () => undefined });
const single = webhookTargets({
  path: '/webhook',
  serverToken: () => undefined,
  single: { guildId: SINGLE, token: 't' },
});

describe("the lists' addresses", () => {
  it('are <path>/<server id>/<site id> with many servers; Discadia carries its secret as the last segment', () => {
    expect(many.listingFor!(`/webhook/${A}/topgg`)).toEqual({ guildId: A, site: 'topgg' });
    expect(many.listingFor!(`/webhook/${A}/discadia/s%2Fcret`)).toEqual({
      guildId: A,
      site: 'discadia',
      pathSecret: 's/cret',
    });
    expect(many.listingFor!(`/webhook/${A}/discadia`)).toEqual({ guildId: A, site: 'discadia', pathSecret: '' });
  });

  it('are <path>/<site id> too for the one server of single-server mode', () => {
    expect(single.listingFor!('/webhook/discordplace')).toEqual({ guildId: SINGLE, site: 'discordplace' });
    expect(many.listingFor!('/webhook/discordplace')).toBeUndefined();
  });

  it("leave Guilds' addresses alone, and name nothing for an unknown site, guilds, or a segment too many", () => {
    for (const path of [
      `/webhook/${A}`,
      '/webhook',
      `/webhook/${A}/guilds`,
      `/webhook/${A}/nosuchlist`,
      `/webhook/${A}/topgg/x`,
    ])
      expect(single.listingFor!(path)).toBeUndefined();
    expect(single.serverFor(`/webhook/${A}`)).toBe(A);
    expect(single.serverFor(`/webhook/${A}/nosuchlist`)).toBeUndefined();
  });
});
