import { describe, expect, it } from '@jest/globals';
import { ComponentType, TextInputStyle } from 'discord-api-types/v10';
import { CUSTOM_ID_MAX } from '../../../src/core/discord-limits.js';
import { ReplyModalField, replyModal } from '../../../src/views/reply-modal.js';
import { readReplyInput } from '../../../src/replies/reply-input.js';
import { english } from '../../../src/i18n/index.js';

describe('replyModal', () => {
  const modal = replyModal({ i18n: english, reviewId: 'rev_8f3a2c' }).toJSON();

  it('has custom id review-reply-submit:<reviewId>', () => {
    expect(modal.custom_id).toBe('review-reply-submit:rev_8f3a2c');
  });

  it('is titled as a reply to the review', () => {
    expect(modal.title).toBe('Reply to review');
  });

  it('wraps a required paragraph input of 1 to 1,000 characters in a label', () => {
    expect(modal.components[0]).toEqual({
      type: ComponentType.Label,
      label: 'Your reply',
      description: 'Everyone can read it on the listing; 1 to 1,000 characters.',
      component: {
        type: ComponentType.TextInput,
        custom_id: ReplyModalField.content,
        style: TextInputStyle.Paragraph,
        required: true,
        min_length: 1,
        max_length: 1000,
        placeholder: 'Posted publicly under the review, as the guild.',
      },
    });
  });

  it('asks whether to pin with a labelled string select, No by default', () => {
    expect(modal.components[1]).toEqual({
      type: ComponentType.Label,
      label: 'Pin this reply?',
      component: {
        type: ComponentType.StringSelect,
        custom_id: ReplyModalField.pinned,
        required: true,
        min_values: 1,
        max_values: 1,
        options: [
          { label: 'No', value: 'no', default: true },
          { label: 'Yes', value: 'yes', description: 'Show this reply at the top of the review.' },
        ],
      },
    });
  });

  it('fits 100 characters with the longest review id', () => {
    const id = replyModal({ i18n: english, reviewId: 'r'.repeat(80) }).toJSON().custom_id;
    expect(id).toBe(`review-reply-submit:${'r'.repeat(80)}`);
    expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
  });

  it('refuses a malformed review id instead of building a modal Discord would reject', () => {
    expect(() => replyModal({ i18n: english, reviewId: 'r'.repeat(81) })).toThrow('malformed review id');
    expect(() => replyModal({ i18n: english, reviewId: '' })).toThrow('malformed review id');
  });
});

describe('readReplyInput', () => {
  it('accepts a reply, trimmed, not pinned when No is chosen', () => {
    expect(readReplyInput({ content: '  Thanks for the review!  ', pinned: ['no'] })).toEqual({
      ok: true,
      content: 'Thanks for the review!',
      pinned: false,
    });
  });

  it('reads Yes as pinned', () => {
    expect(readReplyInput({ content: 'Thanks', pinned: ['yes'] })).toMatchObject({ ok: true, pinned: true });
  });

  it('reads an absent pin choice as not pinned', () => {
    expect(readReplyInput({ content: 'Thanks', pinned: undefined })).toMatchObject({ ok: true, pinned: false });
    expect(readReplyInput({ content: 'Thanks', pinned: [] })).toMatchObject({ ok: true, pinned: false });
  });

  it('reads a typed yes or no, whatever the case', () => {
    expect(readReplyInput({ content: 'Thanks', pinned: ' YES ' })).toMatchObject({ ok: true, pinned: true });
    expect(readReplyInput({ content: 'Thanks', pinned: 'No' })).toMatchObject({ ok: true, pinned: false });
  });

  it('accepts exactly 1,000 characters', () => {
    expect(readReplyInput({ content: 'x'.repeat(1000), pinned: undefined })).toMatchObject({ ok: true });
  });

  it('refuses an empty reply and says what to do', () => {
    const result = readReplyInput({ content: '', pinned: ['no'] });
    expect(result).toEqual({ ok: false, problem: 'refusal.replyEmpty', vars: { min: 1, max: 1000 } });
    expect(english.t('refusal.replyEmpty.text', result.ok ? {} : result.vars)).toBe(
      'Your reply is empty. Write between 1 and 1,000 characters and send it again.',
    );
  });

  it('refuses a reply of only whitespace', () => {
    expect(readReplyInput({ content: ' \n\t ', pinned: ['no'] })).toMatchObject({ ok: false });
  });

  it('refuses 1,001 characters and says how long it is', () => {
    const result = readReplyInput({ content: 'x'.repeat(1001), pinned: ['no'] });
    expect(result).toMatchObject({ ok: false });
    expect(result).toEqual({ ok: false, problem: 'refusal.replyTooLong', vars: { min: 1, max: 1000, length: 1001 } });
    const text = english.t('refusal.replyTooLong.text', result.ok ? {} : result.vars);
    expect(text).toContain('1,001 characters');
    expect(text).toContain('Shorten it to 1,000 or fewer');
  });

  it('refuses a pin answer that is neither yes nor no', () => {
    expect(readReplyInput({ content: 'Thanks', pinned: 'maybe' })).toEqual({
      ok: false,
      problem: 'refusal.replyPinChoice',
    });
  });

  it('accepts the read-only array discord.js returns for a select', () => {
    const values: readonly string[] = Object.freeze(['yes']);
    expect(readReplyInput({ content: 'Thanks', pinned: values })).toMatchObject({ ok: true, pinned: true });
  });

  it('refuses two pin choices at once, which only a forged submit can send', () => {
    expect(readReplyInput({ content: 'Thanks', pinned: ['yes', 'no'] })).toMatchObject({ ok: false });
  });
});
