import type { NoticeKey, Translator, Vars } from '../i18n/index.js';
import type { MessageView } from '../views/message.js';
import { noticeView } from '../views/notice.js';
import type { Tone } from '../views/theme.js';

/** What a /setup step answers: a notice from a title and text pair of the catalogs. */
export function setupAnswer(key: NoticeKey, vars: Vars, i18n: Translator, tone: Tone = 'success'): MessageView {
  return noticeView({ tone, title: i18n.t(`${key}.title`), description: i18n.t(`${key}.text`, vars), i18n });
}
