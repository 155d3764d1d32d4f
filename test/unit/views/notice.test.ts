import { describe, expect, it } from '@jest/globals';
import { noticeView } from '../../../src/views/notice.js';
import { ToneColour } from '../../../src/views/theme.js';
import { embedOf } from './view-json.js';
import { english } from '../../../src/i18n/index.js';

describe('noticeView', () => {
  it('shows an error with the error colour, title, description and reference id', () => {
    const view = noticeView({
      i18n: english,
      tone: 'error',
      title: 'Something went wrong',
      description: 'Try again shortly.',
      referenceId: 'k3x9q2',
    });
    expect(embedOf(view)).toEqual({
      color: 0xed4245,
      title: 'Something went wrong',
      description: 'Try again shortly.',
      footer: { text: 'Reference: k3x9q2' },
    });
  });

  it('has no footer without a reference id', () => {
    expect(embedOf(noticeView({ i18n: english, tone: 'info', title: 't', description: 'd' })).footer).toBeUndefined();
  });

  it('uses one distinct colour per tone', () => {
    const colours = (['error', 'warning', 'info', 'success'] as const).map(
      (tone) => embedOf(noticeView({ i18n: english, tone, title: 't', description: 'd' })).color,
    );
    expect(colours).toEqual([ToneColour.error, ToneColour.warning, ToneColour.info, ToneColour.success]);
    expect(new Set(colours).size).toBe(4);
  });

  it('shortens an over-long title and description to Discord’s limits', () => {
    const embed = embedOf(
      noticeView({ i18n: english, tone: 'warning', title: 't'.repeat(300), description: 'd'.repeat(5000) }),
    );
    expect(embed.title).toHaveLength(256);
    expect(embed.description).toHaveLength(4096);
  });

  it('pings nobody and has no buttons', () => {
    const view = noticeView({ i18n: english, tone: 'success', title: 't', description: 'd' });
    expect(view.allowedMentions).toEqual({ parse: [] });
    expect(view.components).toEqual([]);
  });
});
