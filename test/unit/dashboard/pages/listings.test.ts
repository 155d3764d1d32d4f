import { describe, expect, it } from '@jest/globals';
import { LISTING_ACTIONS, LISTING_FIELDS, listingsPage } from '../../../../src/dashboard/pages/listings.js';
import { translatorFor } from '../../../../src/i18n/index.js';
import { lastFour } from '../../../../src/secrets/secret-box.js';
import type { ListingFacts } from '../../../../src/views/listing.js';
import { expectEveryFormGuarded, flat, formsOf, HOSTILE, HOSTILE_ESCAPED } from '../../../support/html-forms.js';

const GUILD = '100000000000000001';
const CSRF = 'csrf-token-123';
const i18n = translatorFor('en-US');
const DAY = Date.UTC(2026, 10, 20, 9, 30);

const guilds: ListingFacts = {
  site: 'guilds',
  name: 'Guilds',
  secretFromSite: false,
  address: 'https://bot.example/webhooks/abc',
  secret: { end: lastFour('tok_secret_wxyz') },
  lastDeliveryAt: DAY,
  lastTestAt: null,
  voteLength: '12 h (set)',
};
const topgg: ListingFacts = {
  site: 'topgg',
  name: 'Top.gg',
  secretFromSite: true,
  address: `https://bot.example/lists/topgg/${HOSTILE}`,
  secret: { none: true },
  lastDeliveryAt: null,
  lastTestAt: DAY,
  voteLength: "24 h (the site's default)",
};

describe('the credentials and listings page', () => {
  const page = flat(listingsPage({ guildId: GUILD, csrf: CSRF, listings: [guilds, topgg], i18n }).text);

  it("shows each list's address, its secret's last four only, and its last delivery and test", () => {
    expect(page).toContain('https://bot.example/webhooks/abc');
    expect(page).toContain('••••wxyz');
    expect(page).not.toContain('tok_secret');
    expect(page).toContain('<time datetime="2026-11-20T09:30:00.000Z">2026-11-20 09:30 UTC</time>');
    expect(page).toContain('no test yet');
    expect(page).toContain('none yet');
  });

  it('escapes an address, so nothing in it becomes markup', () => {
    expect(page).toContain(HOSTILE_ESCAPED);
    expect(page).not.toContain(HOSTILE);
  });

  it('offers reveal for a kept secret, and rotate with a paste field for a list whose site makes it', () => {
    const forms = formsOf(page);
    const reveal = forms.filter((f) => f.body.includes(`value="${LISTING_ACTIONS.reveal}"`));
    expect(reveal).toHaveLength(1);
    expect(reveal[0]!.body).toContain(`name="${LISTING_FIELDS.site}" value="guilds"`);
    const rotate = forms.filter((f) => f.body.includes(`value="${LISTING_ACTIONS.rotate}"`));
    expect(rotate.map((f) => f.body.includes(`name="${LISTING_FIELDS.secret}"`))).toEqual([false, true]);
  });

  it("shows Top.gg's API token by its end with a form to replace it; one the host sets is shown, not offered", () => {
    const withToken = {
      ...topgg,
      secret: { end: lastFour('whs_secret_0001') },
      apiToken: { end: lastFour('tok-9876') },
    };
    const shown = flat(listingsPage({ guildId: GUILD, csrf: CSRF, listings: [withToken], i18n }).text);
    expect(shown).toContain('<dt>API token</dt>');
    expect(shown).toContain('••••9876');
    const forms = formsOf(shown).filter((f) => f.body.includes(`value="${LISTING_ACTIONS.apiToken}"`));
    expect(forms).toHaveLength(1);
    expect(forms[0]!.body).toContain(`name="${LISTING_FIELDS.apiToken}"`);
    expect(forms[0]!.body).toContain('type="password"');
    const fromHost = { ...withToken, apiToken: { environment: 'LISTING_TOPGG_API_TOKEN' } };
    const hosted = flat(listingsPage({ guildId: GUILD, csrf: CSRF, listings: [fromHost], i18n }).text);
    expect(hosted).toContain('LISTING_TOPGG_API_TOKEN');
    expect(formsOf(hosted).some((f) => f.body.includes(`value="${LISTING_ACTIONS.apiToken}"`))).toBe(false);
    expect(page).not.toContain('<dt>API token</dt>');
  });

  it('puts the CSRF token in every form, each posting to the listings page', () => {
    expect(expectEveryFormGuarded(page, GUILD, CSRF)).toBe(3);
    for (const { tag } of formsOf(page)) expect(tag).toContain(`action="/servers/${GUILD}/listings"`);
  });

  it('shows a secret revealed once whole, and one set by the environment without any form to change it', () => {
    const revealed = listingsPage({
      guildId: GUILD,
      csrf: CSRF,
      listings: [
        { ...guilds, secret: { whole: 'tok_secret_wxyz' } },
        { ...topgg, secret: { environment: 'LISTING_TOPGG_SECRET' } },
      ],
      i18n,
    }).text;
    expect(revealed).toContain('<code class="secret">tok_secret_wxyz</code>');
    expect(revealed).toContain('LISTING_TOPGG_SECRET');
    expect(expectEveryFormGuarded(revealed, GUILD, CSRF)).toBe(1);
  });

  it('shows the service credentials by their ends, with a form for both, or names the settings that hold them', () => {
    const shown = flat(
      listingsPage({
        guildId: GUILD,
        csrf: CSRF,
        listings: [],
        credentials: { apiKey: lastFour('key_abcd1234'), appId: lastFour('app_9876') },
        i18n,
      }).text,
    );
    expect(shown).toContain('<code>••••1234</code>');
    expect(shown).toContain('<code>••••9876</code>');
    expect(shown).not.toContain('key_abcd');
    const [form, ...others] = formsOf(shown);
    expect(others).toHaveLength(0);
    expect(form!.body).toContain(`name="${LISTING_FIELDS.action}" value="${LISTING_ACTIONS.credentials}"`);
    expect(form!.body).toContain('type="password" name="api_key"');
    expect(form!.body).toContain('type="password" name="app_id"');
    expect(expectEveryFormGuarded(shown, GUILD, CSRF)).toBe(1);
    const none = listingsPage({ guildId: GUILD, csrf: CSRF, listings: [], credentials: { none: true }, i18n }).text;
    expect(formsOf(none)).toHaveLength(1);
    const fixed = listingsPage({
      guildId: GUILD,
      csrf: CSRF,
      listings: [],
      credentials: { environment: 'SERVICE_API_KEY, SERVICE_APP_ID' },
      i18n,
    }).text;
    expect(fixed).toContain('SERVICE_API_KEY, SERVICE_APP_ID');
    expect(formsOf(fixed)).toHaveLength(0);
  });

  it('speaks the member’s language', () => {
    const german = listingsPage({ guildId: GUILD, csrf: CSRF, listings: [guilds], i18n: translatorFor('de') }).text;
    expect(german).toContain('>Anzeigen<');
  });
});
