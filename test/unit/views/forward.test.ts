import { describe, expect, it } from '@jest/globals';
import { english } from '../../../src/i18n/index.js';
import { forwardResultText, forwardsView, forwardTestView, type ShownDestination } from '../../../src/views/forward.js';
import { embedOf, embedText, NOW, NOW_UNIX } from './view-json.js';

const AT = NOW.getTime();
const destination = (extra: Partial<ShownDestination> = {}): ShownDestination => ({
  url: 'https://bot.example.com/votes',
  secretEnd: 'k9Zq',
  fromEnvironment: false,
  lastAt: null,
  lastResult: null,
  failingSince: null,
  waiting: 0,
  ...extra,
});

describe("a forwarding destination's last result", () => {
  it.each([
    [{}, 'nothing sent yet'],
    [{ lastAt: AT, lastResult: { outcome: 'delivered', status: 204 } }, `delivered (204) <t:${NOW_UNIX}:R>`],
    [
      { lastAt: AT, lastResult: { outcome: 'gaveUp', status: 302 } },
      `answered 302 <t:${NOW_UNIX}:R>: that delivery was given up`,
    ],
    [
      { lastAt: AT, failingSince: AT - 3_600_000, lastResult: { outcome: 'retrying', reason: 'timeout' } },
      `failing since <t:${NOW_UNIX - 3_600}:R>: no answer within 5 s <t:${NOW_UNIX}:R>; tried again with backoff`,
    ],
    [
      { lastAt: AT, failingSince: AT, lastResult: { outcome: 'refused', reason: 'private' } },
      'not sent: the host resolves to a private, loopback, link-local or metadata address',
    ],
  ] as const)('%j reads "%s"', (extra, text) => {
    expect(forwardResultText(destination(extra as Partial<ShownDestination>), english)).toContain(text);
  });
});

describe('/setup forward list and add', () => {
  it('shows a new secret whole, then only its end, and what waits', () => {
    const made = embedText(embedOf(forwardsView([destination({ wholeSecret: 'vrf_whole-secret-k9Zq' })], english)));
    expect(made).toContain('`vrf_whole-secret-k9Zq`');
    const later = embedText(embedOf(forwardsView([destination({ waiting: 3 })], english)));
    expect(later).toContain('Secret ending in k9Zq');
    expect(later).not.toContain('vrf_whole');
    expect(later).toContain('3 deliveries waiting');
  });

  it('says how to add one when there is none, and names FORWARD_URLS for the environment', () => {
    expect(embedText(embedOf(forwardsView([], english)))).toContain('`/setup forward add`');
    const env = embedText(embedOf(forwardsView([destination({ fromEnvironment: true })], english)));
    expect(env).toContain('Set by FORWARD_URLS, signed with FORWARD_SECRET');
  });
});

describe('/setup forward test', () => {
  it('marks each destination by how it answered', () => {
    const text = embedText(
      embedOf(
        forwardTestView(
          [
            { url: 'https://a.example/', result: 'delivered (200)', ok: true },
            { url: 'https://b.example/', result: 'answered 500', ok: false },
          ],
          english,
        ),
      ),
    );
    expect(text).toContain('✔ `https://a.example/`: delivered (200)');
    expect(text).toContain('✘ `https://b.example/`: answered 500');
  });
});
