import { describe, expect, it } from '@jest/globals';
import { FORWARD_ACTIONS, FORWARD_FIELDS, forwardsCard } from '../../../../src/dashboard/pages/forwards.js';
import { translatorFor } from '../../../../src/i18n/index.js';
import type { ShownDestination } from '../../../../src/views/forward.js';
import { expectEveryFormGuarded, flat, formsOf, HOSTILE, HOSTILE_ESCAPED } from '../../../support/html-forms.js';

const GUILD = '100000000000000001';
const CSRF = 'csrf-token-123';
const i18n = translatorFor('en-US');

const destination = (extra: Partial<ShownDestination> = {}): ShownDestination => ({
  url: `https://bot.example/votes?x=${HOSTILE}`,
  secretEnd: 'k9Zq',
  fromEnvironment: false,
  lastAt: Date.UTC(2026, 10, 20),
  lastResult: { outcome: 'retrying', status: 503 },
  failingSince: Date.UTC(2026, 10, 19),
  waiting: 2,
  ...extra,
});

describe("the listings page's forwarding card", () => {
  it('lists each destination escaped, with its last result, a remove form and the add form, all guarded', () => {
    const page = String(
      forwardsCard({ guildId: GUILD, csrf: CSRF, destinations: [destination()], fromEnvironment: false, i18n }),
    );
    expect(page).not.toContain(HOSTILE);
    expect(page).toContain(HOSTILE_ESCAPED);
    expect(flat(page)).toContain('answered 503');
    expect(page).toContain('••••k9Zq');
    expect(expectEveryFormGuarded(page, GUILD, CSRF)).toBe(2);
    const bodies = formsOf(page).map((form) => form.body);
    expect(bodies[0]).toContain(`value="${FORWARD_ACTIONS.remove}"`);
    expect(bodies[1]).toContain(`value="${FORWARD_ACTIONS.add}"`);
    expect(bodies[1]).toContain(`name="${FORWARD_FIELDS.url}"`);
  });

  it('shows a new secret whole once, and no form for destinations FORWARD_URLS sets', () => {
    const made = String(
      forwardsCard({
        guildId: GUILD,
        csrf: CSRF,
        destinations: [destination({ wholeSecret: 'vrf_whole-k9Zq' })],
        fromEnvironment: false,
        i18n,
      }),
    );
    expect(made).toContain('<code class="secret">vrf_whole-k9Zq</code>');
    const env = String(
      forwardsCard({
        guildId: GUILD,
        csrf: CSRF,
        destinations: [destination({ fromEnvironment: true })],
        fromEnvironment: true,
        i18n,
      }),
    );
    expect(formsOf(env)).toHaveLength(0);
    expect(env).toContain('Set by FORWARD_URLS');
  });
});
