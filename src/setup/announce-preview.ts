import type { TemplateCheck } from '../announce/template.js';
import { PLACEHOLDERS } from '../announce/template.js';
import type { NoticeKey, Translator, Vars } from '../i18n/index.js';
import { SITE_FACTS } from '../lists/index.js';
import { templatedLine, type AnnouncementTemplates } from '../views/vote-announcement.js';

/** The numbers a preview shows: plausible, and labelled as examples; a vote on Guilds, the one list every server has. */
const EXAMPLE = {
  double: false,
  streak: 3,
  monthVotes: 2,
  totalVotes: 12,
  siteName: SITE_FACTS.guilds.name,
  listsToday: 1,
} as const;

/** Who votes in a preview: the member looking at it, on their own server. */
export interface PreviewVoter {
  server: string;
  userId: string;
  /** Their display name, for `{name}`; without it the mention stands in. */
  name: string | undefined;
}

/** A vote and a first vote as the templates word them, and whether either pings the voter. */
export interface AnnouncementExample {
  /** Neither template is set: the built-in line shows. */
  builtIn: boolean;
  vote: string;
  first: string;
  pings: boolean;
}

/**
 * The example announcements `/setup announce` and the dashboard both preview: the same template
 * code the bot posts with, on example numbers.
 */
export function exampleAnnouncements(
  templates: AnnouncementTemplates,
  voter: PreviewVoter,
  i18n: Translator,
): AnnouncementExample {
  const vote = { ...EXAMPLE, userId: voter.userId, first: false };
  const line = (first: boolean) =>
    templatedLine(
      { ...vote, first, totalVotes: first ? 1 : vote.totalVotes },
      templates,
      voter.server,
      i18n,
      voter.name,
    );
  const normal = line(false);
  const first = line(true);
  return {
    builtIn: templates.template === undefined && templates.firstVote === undefined,
    vote: normal.text,
    first: first.text,
    pings: normal.pings || first.pings,
  };
}

/** Why a template is refused, as the notice key and its values: the same words on /setup and on the dashboard. */
export function templateRefusal(check: Exclude<TemplateCheck, { ok: true }>): { key: NoticeKey; vars: Vars } {
  const known = PLACEHOLDERS.map((name) => `\`{${name}}\``).join(' ');
  if (check.problem === 'unknown')
    return {
      key: 'refusal.templateUnknown',
      vars: { unknown: check.unknown.map((name) => `\`{${name}}\``).join(', '), known },
    };
  if (check.problem === 'tooLong') return { key: 'refusal.templateTooLong', vars: { max: check.max } };
  return { key: 'refusal.templateEmpty', vars: { known } };
}
