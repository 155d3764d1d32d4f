export {
  english,
  localizations,
  translatorFor,
  type MessageKey,
  type NoticeKey,
  type Translator,
  type Vars,
} from './translator.js';
