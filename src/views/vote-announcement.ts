import { EmbedBuilder } from './embed-builder.js';
import { mentionsVoter, renderTemplate } from '../announce/template.js';
import {
  ALLOWED_MENTIONS_USERS_MAX,
  EMBED_DESCRIPTION_MAX,
  EMBED_TOTAL_MAX,
  EMBEDS_PER_MESSAGE_MAX,
  MESSAGE_CONTENT_MAX,
} from '../core/discord-limits.js';
import type { Translator } from '../i18n/index.js';
import { embedSize } from './embed-size.js';
import { mention, mentionWithName, showsNothing } from '../core/discord-text.js';
import type { MessageView } from './message.js';
import { ToneColour } from './theme.js';

/** The most voters read for one message; how many fit is decided by `packVoteAnnouncement`. */
export const VOTERS_PER_ANNOUNCEMENT = 200;

export interface AnnouncedVote {
  userId: string;
  double: boolean;
  /** The name of the list it was cast on, for a vote on a list other than Guilds (a Guilds vote reads as always). */
  listName?: string;
  /** The member voted on every one of the server's lists (two or more) in the 24 hours up to this vote. */
  everyList?: boolean;
  /** Read back from the list's API after the bot was down: the line ends "(recovered)". */
  recovered?: boolean;
}

export interface VoteTotals {
  /** The server's votes over all its lists (store/vote-counts.ts); undefined before Guilds' first poll. */
  total: number | undefined;
  /** The same, this calendar month (UTC). */
  thisMonth: number;
}

/**
 * One message for a batch of voters, so a burst never runs into Discord's per-channel limit: a
 * line each, in as many embeds as the lines need (the title on the first, the totals on the last).
 * The caller keeps the batch within a message's limits (`packVoteAnnouncement`).
 */
export function voteAnnouncementView(
  votes: readonly AnnouncedVote[],
  totals: VoteTotals,
  i18n: Translator,
  names: ReadonlyMap<string, string> = new Map(),
): MessageView {
  const { t } = i18n;
  const descriptions: string[] = [];
  let current = '';
  for (const line of voteLines(votes, i18n, names)) {
    const next = current === '' ? line : `${current}\n${line}`;
    if (next.length > EMBED_DESCRIPTION_MAX && current !== '') {
      descriptions.push(current);
      current = line;
    } else current = next;
  }
  descriptions.push(current);
  const footer = [
    totals.total === undefined ? undefined : t('feed.vote.total', { count: totals.total }),
    t('feed.vote.month', { count: totals.thisMonth }),
  ]
    .filter(Boolean)
    .join(' · ');
  const embeds = descriptions.map((description) =>
    new EmbedBuilder().setColor(ToneColour.success).setDescription(description),
  );
  embeds[0]!.setTitle(votes.length === 1 ? t('feed.vote.titleOne') : t('feed.vote.titleMany', { count: votes.length }));
  embeds.at(-1)!.setFooter({ text: footer });
  return { embeds, components: [], allowedMentions: { parse: [] } };
}

/** The longest head of `votes` whose announcement fits one message, and that announcement. */
export function packVoteAnnouncement(
  votes: readonly AnnouncedVote[],
  totals: VoteTotals,
  i18n: Translator,
  names: ReadonlyMap<string, string> = new Map(),
): { view: MessageView; count: number } {
  const fits = (count: number) => {
    const view = voteAnnouncementView(votes.slice(0, count), totals, i18n, names);
    const size = view.embeds.reduce((sum, embed) => sum + embedSize(embed), 0);
    return view.embeds.length <= EMBEDS_PER_MESSAGE_MAX && size <= EMBED_TOTAL_MAX ? view : undefined;
  };
  // Lines differ in length (names): the largest count that fits, by halving.
  let low = 1;
  let high = votes.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return { view: fits(low) ?? voteAnnouncementView(votes.slice(0, 1), totals, i18n, names), count: low };
}

function voteLines(votes: readonly AnnouncedVote[], i18n: Translator, names: ReadonlyMap<string, string>): string[] {
  const { t } = i18n;
  return votes.flatMap((vote) => {
    const member = mentionWithName(vote.userId, names.get(vote.userId));
    const line =
      vote.listName === undefined
        ? t(vote.double ? 'feed.vote.lineDouble' : 'feed.vote.line', { member })
        : // The site's own name, shown as is: it comes from src/lists, never from a delivery.
          t(vote.double ? 'feed.vote.lineSiteDouble' : 'feed.vote.lineSite', { member, site: vote.listName });
    const shown = recoveredMark(line, vote, i18n);
    return vote.everyList ? [shown, everyListLine(member, i18n)] : [shown];
  });
}

/** A recovered vote's line, marked so: it is announced late, after the bot was down. */
const recoveredMark = (line: string, vote: AnnouncedVote, { t }: Translator): string =>
  vote.recovered === true ? `${line} ${t('feed.vote.recovered')}` : line;

/** The extra line of a member who voted on all of the server's lists today, in the embed and after a template's line. */
const everyListLine = (member: string, { t }: Translator): string => t('feed.vote.everyList', { member });

/** The server's own wording of announcements (/setup announce); no template: the built-in embed. */
export interface AnnouncementTemplates {
  template: string | undefined;
  /** For a member's first recorded vote; without it the template (or the built-in line) serves. */
  firstVote: string | undefined;
  /** `{user}` pings the voter. */
  ping: boolean;
}

/** A vote as a template reads it. */
export interface TemplatedVote extends AnnouncedVote {
  first: boolean;
  streak: number;
  monthVotes: number;
  totalVotes: number;
  /** The list's name for `{site}`; undefined: Guilds. */
  siteName?: string;
  /** `{sites_today}`: the lists the member voted on in the 24 hours up to this vote, this one's included. */
  listsToday?: number;
}

/** A REST message body: text, pinging at most the voters it names with `{user}`. */
export interface AnnouncementBody {
  content: string;
  allowed_mentions: { parse: []; users: string[] };
}

export function usesTemplates(templates: AnnouncementTemplates): boolean {
  return templates.template !== undefined || templates.firstVote !== undefined;
}

/** The template a vote is announced with: the first-vote one for a first vote, else the server's, else the built-in line. */
function templateFor(vote: TemplatedVote, templates: AnnouncementTemplates, i18n: Translator): string {
  if (vote.first && templates.firstVote !== undefined) return templates.firstVote;
  return templates.template ?? builtInTemplate(vote, i18n);
}

/** The built-in line as a template: a vote on another list than Guilds names it, as the embed's line does. */
const builtInTemplate = (vote: AnnouncedVote, { t }: Translator): string =>
  t(vote.listName === undefined ? 'announce.defaultTemplate' : 'announce.defaultTemplateSite');

/** One voter's line, and whether it pings them. */
export function templatedLine(
  vote: TemplatedVote,
  templates: AnnouncementTemplates,
  server: string,
  i18n: Translator,
  name: string | undefined,
): { text: string; pings: boolean } {
  const chosen = templateFor(vote, templates, i18n);
  const rendered = renderTemplate(chosen, { ...vote, name, server }, i18n);
  // A template stored before blank ones were refused (or a blank name in {name}) would post a line
  // that shows nothing, and a message of nothing is refused by Discord: the built-in line stands in.
  const template = showsNothing(rendered) ? builtInTemplate(vote, i18n) : chosen;
  const plain = template === chosen ? rendered : renderTemplate(template, { ...vote, name, server }, i18n);
  const marked = recoveredMark(plain, vote, i18n);
  const text = marked.length <= MESSAGE_CONTENT_MAX ? marked : plain;
  // The extra line mentions the voter without pinging them unless the template's {user} does (allowed_mentions).
  const extra = vote.everyList ? `\n${everyListLine(mention(vote.userId), i18n)}` : '';
  // A template is refused unless its line fits a message; the extra line is left out where it would not.
  const withExtra = text.length + extra.length <= MESSAGE_CONTENT_MAX ? text + extra : text;
  return { text: withExtra, pings: templates.ping && mentionsVoter(template) };
}

/**
 * The longest head of `votes` whose lines fit one message's text (a line each, at least one: a
 * template is refused unless its longest rendering fits), and that message.
 */
export function packTemplatedAnnouncement(
  votes: readonly TemplatedVote[],
  templates: AnnouncementTemplates,
  server: string,
  i18n: Translator,
  names: ReadonlyMap<string, string> = new Map(),
): { body: AnnouncementBody; count: number } {
  const lines: string[] = [];
  const users: string[] = [];
  let length = 0;
  // allowed_mentions.users takes at most ALLOWED_MENTIONS_USERS_MAX ids: no message names more voters.
  for (const vote of votes.slice(0, ALLOWED_MENTIONS_USERS_MAX)) {
    const line = templatedLine(vote, templates, server, i18n, names.get(vote.userId));
    const added = (lines.length === 0 ? 0 : 1) + line.text.length;
    if (lines.length > 0 && length + added > MESSAGE_CONTENT_MAX) break;
    lines.push(line.text);
    length += added;
    if (line.pings && !users.includes(vote.userId)) users.push(vote.userId);
  }
  return { body: { content: lines.join('\n'), allowed_mentions: { parse: [], users } }, count: lines.length };
}
