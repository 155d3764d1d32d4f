import { describe, expect, it } from '@jest/globals';
import type { InteractionEditReplyOptions, InteractionReplyOptions, InteractionUpdateOptions } from 'discord.js';
import type { MessageView } from '../../../src/views/message.js';
import { noticeView } from '../../../src/views/notice.js';
import { votesView } from '../../../src/views/votes.js';
import { NOW } from './view-json.js';
import { english } from '../../../src/i18n/index.js';

// Compile-time: a view goes straight into reply, editReply and update (checked by tsc).
const asReply = (view: MessageView): InteractionReplyOptions => view;
const asEditReply = (view: MessageView): InteractionEditReplyOptions => view;
const asUpdate = (view: MessageView): InteractionUpdateOptions => view;

describe('message views', () => {
  it('can be passed to reply, editReply and update as they are', () => {
    const view = noticeView({ i18n: english, tone: 'info', title: 't', description: 'd' });
    expect([asReply(view), asEditReply(view), asUpdate(view)]).toEqual([view, view, view]);
  });

  it('never set the ephemeral flag, which the handler decides', () => {
    expect(noticeView({ i18n: english, tone: 'info', title: 't', description: 'd' })).not.toHaveProperty('flags');
    expect(
      votesView({ i18n: english, list: { totalVotes: 0, monthlyVotes: 0, votes: [] }, page: 1, now: NOW }),
    ).not.toHaveProperty('flags');
  });

  it('get a fresh allowedMentions object each time, so no caller can change another’s', () => {
    const a = noticeView({ i18n: english, tone: 'info', title: 't', description: 'd' });
    const b = noticeView({ i18n: english, tone: 'info', title: 't', description: 'd' });
    expect(a.allowedMentions).not.toBe(b.allowedMentions);
  });
});
