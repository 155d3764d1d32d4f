import { describe, it, expect } from '@jest/globals';
import { decodeCustomId, encodeCustomId, Prefix } from '../../src/core/custom-id.js';
import { CUSTOM_ID_MAX } from '../../src/core/discord-limits.js';

describe('custom id codec', () => {
  it('joins prefix and argument with a colon and reads them back', () => {
    const id = encodeCustomId(Prefix.reviewReply, 'rev_7Hq2LmX9');
    expect(id).toBe('review-reply:rev_7Hq2LmX9');
    expect(decodeCustomId(id)).toEqual({ prefix: 'review-reply', arg: 'rev_7Hq2LmX9' });
  });

  it('keeps colons inside the argument', () => {
    expect(decodeCustomId('votes-page:a:b')).toEqual({ prefix: 'votes-page', arg: 'a:b' });
  });

  it('refuses to build an id longer than Discord allows', () => {
    expect(() => encodeCustomId(Prefix.reviewReply, 'x'.repeat(CUSTOM_ID_MAX))).toThrow(/longer than 100/);
  });

  it.each(['', 'no-colon', ':arg', 'Upper:case', '1abc:x', 'x'.repeat(101), 'bad prefix:1'])('refuses %p', (id) => {
    expect(decodeCustomId(id)).toBeNull();
  });
});
