import { REPLY_MAX_LENGTH, REPLY_MIN_LENGTH } from '../api/index.js';
import type { NoticeKey, Vars } from '../i18n/index.js';
import { PinChoice, REPLY_LENGTHS } from '../views/reply-modal.js';

export type ReplyInputResult =
  { ok: true; content: string; pinned: boolean } | { ok: false; problem: NoticeKey; vars?: Vars };

function readPinned(value: readonly string[] | string | undefined): boolean | null {
  if (value === undefined) return false;
  const single = typeof value === 'string' ? value : value.length > 1 ? null : (value[0] ?? '');
  if (single === null) return null;
  const answer = single.trim().toLowerCase();
  if (answer === '' || answer === PinChoice.no) return false;
  if (answer === PinChoice.yes) return true;
  return null;
}

/**
 * Checks a reply, whoever sends it: the modal's own limits can be bypassed by a forged submit.
 * Length is JavaScript string length (UTF-16 units, an emoji counts as two): the strictest way
 * to count, so a reply accepted here fits a 1,000 limit however the service counts.
 */
export function readReplyInput(values: {
  content: string;
  /** The select's values, a typed answer, or undefined when the field is absent. */
  pinned: readonly string[] | string | undefined;
}): ReplyInputResult {
  const content = values.content.trim();
  if (content.length < REPLY_MIN_LENGTH) {
    return { ok: false, problem: 'refusal.replyEmpty', vars: REPLY_LENGTHS };
  }
  if (content.length > REPLY_MAX_LENGTH) {
    return { ok: false, problem: 'refusal.replyTooLong', vars: { ...REPLY_LENGTHS, length: content.length } };
  }
  const pinned = readPinned(values.pinned);
  if (pinned === null) {
    return { ok: false, problem: 'refusal.replyPinChoice' };
  }
  return { ok: true, content, pinned };
}
