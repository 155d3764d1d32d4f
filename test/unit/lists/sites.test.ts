import { describe, expect, it } from '@jest/globals';
import { isAdaptedSiteId, isSiteId, LIST_SITES, SITE_FACTS, SITE_IDS } from '../../../src/lists/index.js';
import { VOTE_WEIGHTS } from '../../../src/store/index.js';

describe('the list registry', () => {
  it('describes every site id, each under its own id', () => {
    expect(Object.keys(SITE_FACTS).sort()).toEqual([...SITE_IDS].sort());
    for (const [id, site] of Object.entries(SITE_FACTS)) expect(site.id).toBe(id);
  });

  it('reads every site but Guilds, whose deliveries keep their own path', () => {
    expect(Object.keys(LIST_SITES).sort()).toEqual(SITE_IDS.filter((id) => id !== 'guilds').sort());
    expect(SITE_FACTS.guilds).not.toHaveProperty('verify');
  });

  it('gives a reply API to Guilds alone', () => {
    expect(
      Object.values(SITE_FACTS)
        .filter((site) => site.replyApi)
        .map((site) => site.id),
    ).toEqual(['guilds']);
  });

  it("gives each site a weight range inside what the ledger records, so a vote's weight never outgrows a sum", () => {
    for (const site of Object.values(SITE_FACTS)) {
      expect(site.weights.min).toBeGreaterThanOrEqual(VOTE_WEIGHTS.min);
      expect(site.weights.max).toBeLessThanOrEqual(VOTE_WEIGHTS.max);
      expect(site.weights.min).toBeLessThanOrEqual(site.weights.max);
    }
  });

  it('knows a site id from anything else', () => {
    expect(isSiteId('topgg')).toBe(true);
    expect(isSiteId('guilds')).toBe(true);
    expect(isSiteId('top.gg')).toBe(false);
    expect(isSiteId('constructor')).toBe(false);
    expect(isSiteId(7)).toBe(false);
    expect(isAdaptedSiteId('guilds')).toBe(false);
    expect(isAdaptedSiteId('discadia')).toBe(true);
  });
});
