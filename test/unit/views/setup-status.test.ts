import { describe, expect, it } from '@jest/globals';
import { english, translatorFor } from '../../../src/i18n/index.js';
import { ToneColour } from '../../../src/views/theme.js';
import { setupStatusView } from '../../../src/views/setup-status.js';
import { embedOf } from './view-json.js';

describe('/setup status', () => {
  it('shows one line per check, ✔ or ✘, with the fix under each failure', () => {
    const embed = embedOf(
      setupStatusView(
        [
          { ok: true, label: 'Service credentials', detail: 'accepted' },
          {
            ok: false,
            label: 'Review feed',
            detail: '<#1>: the bot lacks Send Messages',
            fix: 'give it Send Messages',
          },
          { ok: true, label: 'Last vote poll', detail: 'off' },
        ],
        english,
      ),
    );
    expect(embed.title).toBe('Setup status');
    expect(embed.description).toBe(
      [
        '✔ **Service credentials**: accepted',
        '✘ **Review feed**: <#1>: the bot lacks Send Messages',
        '  ↳ Fix: give it Send Messages',
        '✔ **Last vote poll**: off',
      ].join('\n'),
    );
    expect(embed.color).toBe(ToneColour.warning);
  });

  it('is green only when every check passed, and words the fix in the member language', () => {
    const allGood = embedOf(setupStatusView([{ ok: true, label: 'A', detail: 'b' }], english));
    expect(allGood.color).toBe(ToneColour.success);
    const german = embedOf(setupStatusView([{ ok: false, label: 'A', detail: 'b', fix: 'c' }], translatorFor('de')));
    expect(german.title).toBe('Stand der Einrichtung');
    expect(german.description).toContain('Behebung: c');
  });
});
