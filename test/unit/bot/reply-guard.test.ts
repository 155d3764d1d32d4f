import { describe, it, expect } from '@jest/globals';
import { ReplyGuard } from '../../../src/bot/reply-guard.js';

describe('ReplyGuard', () => {
  it('lets the first submit through and holds a second one while the first is posting', () => {
    const guard = new ReplyGuard();
    expect(guard.claim('rev_1', 'Thanks!')).toEqual({ ok: true });
    expect(guard.claim('rev_1', 'Thanks!')).toEqual({ ok: false, state: 'pending' });
  });

  it('names the reply already posted for the same review and text', () => {
    const guard = new ReplyGuard();
    guard.claim('rev_1', 'Thanks!');
    guard.posted('rev_1', 'Thanks!', '900000000000000001');
    expect(guard.claim('rev_1', 'Thanks!')).toEqual({ ok: false, state: 'posted', replyId: '900000000000000001' });
  });

  it('treats another text or another review as a new reply', () => {
    const guard = new ReplyGuard();
    guard.claim('rev_1', 'Thanks!');
    expect(guard.claim('rev_1', 'Thank you!')).toEqual({ ok: true });
    expect(guard.claim('rev_2', 'Thanks!')).toEqual({ ok: true });
  });

  it('lets the same text through again after a failure releases it', () => {
    const guard = new ReplyGuard();
    guard.claim('rev_1', 'Thanks!');
    guard.release('rev_1', 'Thanks!');
    expect(guard.claim('rev_1', 'Thanks!')).toEqual({ ok: true });
  });

  it('forgets a posted reply after the keep time', () => {
    let now = 0;
    const guard = new ReplyGuard(1_000, 10, () => now);
    guard.claim('rev_1', 'Thanks!');
    guard.posted('rev_1', 'Thanks!', '900000000000000001');
    now = 1_001;
    expect(guard.claim('rev_1', 'Thanks!')).toEqual({ ok: true });
  });

  it('stays bounded, dropping the oldest entry', () => {
    const guard = new ReplyGuard(60_000, 2);
    guard.claim('rev_1', 'a');
    guard.claim('rev_2', 'b');
    guard.claim('rev_3', 'c');
    expect(guard.claim('rev_1', 'a')).toEqual({ ok: true });
    expect(guard.claim('rev_3', 'c')).toEqual({ ok: false, state: 'pending' });
  });
});
