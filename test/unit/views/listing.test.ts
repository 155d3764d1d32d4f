import { describe, expect, it } from '@jest/globals';
import { english } from '../../../src/i18n/index.js';
import { voteLengthText } from '../../../src/setup/listing-facts.js';
import { listingAddress, listingSecretVariable as listingVariable } from '../../../src/lists/index.js';
import { readListingSecret } from '../../../src/views/listing-secret-modal.js';
import { lastTestText, listingsView, listingView } from '../../../src/views/listing.js';
import { buttonsOf, customIdOf, embedOf, embedText, NOW, NOW_UNIX } from './view-json.js';

const GUILD = '123456789012345678';
const WEBHOOK = { publicUrl: 'https://bot.example.com/', path: '/webhook/' };

describe("a listing's address", () => {
  it('is the public address, the path, the server id and the site id, with no doubled slash', () => {
    expect(listingAddress(WEBHOOK, GUILD, 'topgg')).toBe(`https://bot.example.com/webhook/${GUILD}/topgg`);
  });

  it('has no server id for the one server of .env, and is only the path without WEBHOOK_PUBLIC_URL', () => {
    expect(listingAddress(WEBHOOK, undefined, 'discordplace')).toBe('https://bot.example.com/webhook/discordplace');
    expect(listingAddress({ publicUrl: undefined, path: '/hooks' }, GUILD, 'discadia')).toBe(
      `/hooks/${GUILD}/discadia`,
    );
  });

  it('names the .env setting of each list', () => {
    expect(listingVariable('topgg')).toBe('LISTING_TOPGG_SECRET');
    expect(listingVariable('discordlistspace')).toBe('LISTING_DISCORDLISTSPACE_SECRET');
  });
});

describe("a listing's vote length", () => {
  it("is the site's default until set, then the hours set; a list that sends it says so", () => {
    expect(voteLengthText({ site: 'discordplace', voteLengthMs: null }, english)).toBe("24 h (the site's default)");
    expect(voteLengthText({ site: 'discadia', voteLengthMs: 12 * 3_600_000 }, english)).toBe('12 h (set)');
    expect(voteLengthText({ site: 'topgg', voteLengthMs: null }, english)).toBe(
      'as each vote says (the site sends it)',
    );
  });

  it("is a field of /setup listing add's answer", () => {
    const answer = listingView({
      ...DP,
      address: 'https://x/dp',
      secret: { none: true },
      lastDeliveryAt: null,
      lastTestAt: null,
      i18n: english,
    });
    expect(embedText(embedOf(answer))).toContain("24 h (the site's default)");
  });
});

describe('the secret pasted in the form', () => {
  it("takes Top.gg's whs_ secret and a legacy one, trimmed", () => {
    expect(readListingSecret(' whs_abcdefghijklmnop\n')).toBe('whs_abcdefghijklmnop');
    expect(readListingSecret('my-legacy-secret')).toBe('my-legacy-secret');
    expect(readListingSecret('whs_abcdefghijkl')).toBe('whs_abcdefghijkl');
  });

  it.each([
    ['too short', 'whs_abcdefghijk'],
    ['spaced', 'whs_abc def ghij'],
    ['too long', `whs_${'a'.repeat(253)}`],
    ['missing', undefined],
    ['not text', 42],
  ])('refuses one %s', (_, value) => {
    expect(readListingSecret(value)).toBeNull();
  });
});

const DP = {
  site: 'discordplace',
  name: 'discord.place',
  secretFromSite: false,
  steps: english.t('setup.listing.steps.discordplace'),
  voteLength: "24 h (the site's default)",
};
const TOPGG = {
  site: 'topgg',
  name: 'Top.gg',
  secretFromSite: true,
  steps: english.t('setup.listing.steps.topgg'),
  voteLength: 'as each vote says (the site sends it)',
};

describe('/setup listing add', () => {
  const address = `https://bot.example.com/webhook/${GUILD}/discordplace`;

  it('shows a secret the bot made whole, says it is shown once, and tells what to paste where', () => {
    const view = listingView({
      ...DP,
      address,
      secret: { whole: 'made-by-the-bot-0123456789' },
      lastDeliveryAt: null,
      lastTestAt: null,
      i18n: english,
    });
    const text = embedText(embedOf(view));
    expect(embedOf(view).title).toBe('discord.place for this server');
    expect(text).toContain(`\`${address}\``);
    expect(text).toContain('`made-by-the-bot-0123456789`');
    expect(text).toContain('shown only this once');
    expect(text).toContain('**Webhook**');
    expect(text).toContain('no test yet');
    expect(buttonsOf(view)).toEqual([]);
  });

  it('shows a kept secret by its end only, with its last delivery and last test', () => {
    const at = NOW.getTime();
    const view = listingView({
      ...DP,
      address,
      secret: { end: '••••6789' },
      lastDeliveryAt: at,
      lastTestAt: at,
      i18n: english,
    });
    const text = embedText(embedOf(view));
    expect(text).toContain('ending in ••••6789');
    expect(text).toContain(`test received ✔ <t:${NOW_UNIX}:R>`);
  });

  it("offers Top.gg's form through a button, as Top.gg makes the secret", () => {
    const view = listingView({
      ...TOPGG,
      address,
      secret: { none: true },
      lastDeliveryAt: null,
      lastTestAt: null,
      i18n: english,
    });
    expect(buttonsOf(view).map(customIdOf)).toEqual(['setup-listing:topgg']);
    expect(embedText(embedOf(view))).toContain('whs_');
  });
});

describe('/setup listing list', () => {
  it('has one field per listing: address, secret end, last delivery, last test', () => {
    const view = listingsView(
      [
        {
          ...TOPGG,
          address: 'https://x/topgg',
          secret: { end: '••••wxyz' },
          lastDeliveryAt: null,
          lastTestAt: NOW.getTime(),
        },
        {
          site: 'discadia',
          name: 'Discadia',
          secretFromSite: false,
          address: 'https://x/discadia',
          secret: { environment: 'LISTING_DISCADIA_SECRET' },
          lastDeliveryAt: null,
          lastTestAt: null,
          voteLength: '12 h (set)',
        },
      ],
      english,
    );
    const fields = embedOf(view).fields!;
    expect(fields.map((f) => f.name)).toEqual(['Top.gg', 'Discadia']);
    expect(fields[0]!.value).toContain('••••wxyz');
    expect(fields[0]!.value).toContain(lastTestText(NOW.getTime(), english));
    expect(fields[1]!.value).toContain('set by LISTING_DISCADIA_SECRET');
    expect(fields[1]!.value).toContain('Votes run: 12 h (set)');
  });

  it('says how to add one when there is none', () => {
    expect(embedOf(listingsView([], english)).description).toContain('/setup listing add');
  });
});
