import { checkTemplate } from '../announce/template.js';
import type { BaseContext } from '../runtime/context.js';
import { UserFacingError } from '../bot/user-error.js';
import type { Translator } from '../i18n/index.js';
import type { ServerSettingsRecord } from '../store/index.js';
import type { MessageView } from '../views/message.js';
import { noticeView } from '../views/notice.js';
import type { AnnouncementTemplates } from '../views/vote-announcement.js';
import { exampleAnnouncements, templateRefusal } from './announce-preview.js';
import { changeAnswer, changed, changeResult, type ChangeTarget, type ApplyChange } from './change.js';
import type { SetupCall } from './steps.js';
import { refuseEnvironmentSetting } from './manage-server.js';
import type { Actor } from '../bot/actor.js';

/**
 * What an announcement change asks for: texts as typed (checked here), switches, or a clear. A text
 * of null puts that one back to the built-in line (the dashboard's emptied field); left out, it stays.
 */
export interface AnnounceInput {
  template?: string | null;
  firstVote?: string | null;
  ping?: boolean;
  everyList?: boolean;
  clear?: boolean;
}

/** Who the preview shows voting: the member making the change, on their server. */
interface PreviewVoter {
  userId: string;
  name: string | undefined;
  server: string;
}

/** The input checked against the server's current settings: what announcements would be after it. */
interface AnnouncePlan {
  input: AnnounceInput & { clear: boolean };
  next: AnnouncementTemplates;
  everyListOn: boolean;
  showEveryList: boolean;
  changes: boolean;
}

/**
 * `/setup announce template:… first-vote:… ping:… every-list:… preview:… clear:…`: how votes are announced.
 * With `preview:true` nothing is stored or posted; the answer shows what announcements would say.
 */
export async function announceAnswer(
  ctx: BaseContext,
  { preview, ...input }: AnnounceInput & { preview?: boolean },
  { target, actor, i18n }: SetupCall,
): Promise<MessageView> {
  const plan = planAnnounce(ctx, target.guildId, input);
  if (preview || !plan.changes) {
    const description = shownText(previewParts(plan, voterOf(target, actor), i18n));
    return noticeView({ tone: 'info', title: i18n.t('setup.announce.preview.title'), description, i18n });
  }
  return changeAnswer(await applyAnnounce(ctx, target, input, actor), i18n);
}

/** What announcements would say: each message as posted, under what it is, and the notes about them. */
export interface AnnouncePreview {
  /** Set when the built-in lines are in use, saying so. */
  builtIn?: string;
  messages: ReadonlyArray<{ label: string; text: string }>;
  /** Who is pinged; then the every-list line's state when it applies. */
  notes: readonly string[];
}

/**
 * What announcements would say after the change, stored nothing: the dashboard's preview, drawn as
 * messages (`/setup announce preview:true` shows the same as text). A template that would be refused
 * is refused here too.
 */
export function announcePreview(
  ctx: BaseContext,
  target: ChangeTarget,
  input: AnnounceInput,
  actor: Actor,
  i18n: Translator,
): AnnouncePreview {
  return previewParts(planAnnounce(ctx, target.guildId, input), voterOf(target, actor), i18n);
}

/** The server's announcements now, each setting or its default: what a change is made against. */
export function currentAnnouncements(
  ctx: BaseContext,
  guildId: string,
): AnnouncementTemplates & { everyList: boolean } {
  const current = ctx.servers.settings(guildId);
  return {
    template: current?.announceTemplate,
    firstVote: current?.firstVoteTemplate,
    ping: current?.announcePing ?? false,
    everyList: current?.announceEveryList ?? true,
  };
}

export const applyAnnounce: ApplyChange<AnnounceInput> = async (ctx, target, raw, actor) => {
  const { guildId } = target;
  const plan = planAnnounce(ctx, guildId, raw);
  const { input, next } = plan;
  const patch: ServerSettingsRecord = {};
  if (input.template !== undefined || input.clear) {
    refuseEnvironmentSetting(ctx.servers, guildId, 'announceTemplate');
    patch.announceTemplate = next.template;
  }
  if (input.firstVote !== undefined || input.clear) {
    refuseEnvironmentSetting(ctx.servers, guildId, 'firstVoteTemplate');
    patch.firstVoteTemplate = next.firstVote;
  }
  if (input.ping !== undefined) {
    refuseEnvironmentSetting(ctx.servers, guildId, 'announcePing');
    patch.announcePing = input.ping;
  }
  if (input.everyList !== undefined) {
    refuseEnvironmentSetting(ctx.servers, guildId, 'announceEveryList');
    patch.announceEveryList = input.everyList;
  }
  await ctx.setup.changes.setSettings(guildId, patch);
  const vars = (i18n: Translator) => ({ preview: shownText(previewParts(plan, voterOf(target, actor), i18n)) });
  return changed(ctx, target, actor, changeResult(input.clear ? 'setup.announce.cleared' : 'setup.announce.set', vars));
};

const voterOf = ({ guild }: ChangeTarget, { userId, name }: Actor): PreviewVoter => ({
  userId,
  name,
  server: guild?.name ?? '',
});

/** The templates checked (refused as today when wrong) and what the server's announcements would become. */
function planAnnounce(ctx: BaseContext, guildId: string, raw: AnnounceInput): AnnouncePlan {
  const template = checked(raw.template);
  const firstVote = checked(raw.firstVote);
  const { ping, everyList } = raw;
  const clear = raw.clear ?? false;
  if (clear && (template !== undefined || firstVote !== undefined)) throw new UserFacingError('refusal.announceClear');
  const current = currentAnnouncements(ctx, guildId);
  const kept = (given: string | null | undefined, now: string | undefined) =>
    clear || given === null ? undefined : (given ?? now);
  const next: AnnouncementTemplates = {
    template: kept(template, current.template),
    firstVote: kept(firstVote, current.firstVote),
    ping: ping ?? current.ping,
  };
  return {
    input: { template, firstVote, ping, everyList, clear },
    next,
    everyListOn: everyList ?? current.everyList,
    // A server on Guilds alone sees the line about it only when it asks: it has no other list to vote on.
    showEveryList: everyList !== undefined || ctx.servers.listings.any(guildId),
    changes:
      template !== undefined || firstVote !== undefined || ping !== undefined || everyList !== undefined || clear,
  };
}

/** The preview as /setup announce shows it: each message under its label in bold, then the notes. */
function shownText({ builtIn, messages, notes }: AnnouncePreview): string {
  const [pings, ...rest] = notes;
  const lines = messages.flatMap(({ label, text }) => [`**${label}**`, text]);
  return [...(builtIn ? [builtIn] : []), ...lines, '', pings ?? '', ...rest].join('\n');
}

/** The template as typed, checked; undefined when the option was left out, null when it goes back to built-in. */
function checked(text: string | null | undefined): string | null | undefined {
  if (text === undefined || text === null) return text;
  const check = checkTemplate(text);
  if (check.ok) return check.template;
  const { key, vars } = templateRefusal(check);
  throw new UserFacingError(key, vars);
}

/** A vote and a first vote by the caller, as the templates word them, and who would be pinged. */
function previewParts(plan: AnnouncePlan, { userId, name, server }: PreviewVoter, i18n: Translator): AnnouncePreview {
  const { t } = i18n;
  const example = exampleAnnouncements(plan.next, { server, userId, name }, i18n);
  const everyList = plan.everyListOn ? 'setup.announce.everyListOn' : 'setup.announce.everyListOff';
  return {
    ...(example.builtIn ? { builtIn: t('setup.announce.builtIn') } : {}),
    messages: [
      { label: t('setup.announce.voteLabel'), text: example.vote },
      { label: t('setup.announce.firstLabel'), text: example.first },
    ],
    notes: [
      t(example.pings ? 'setup.announce.pingsVoter' : 'setup.announce.pingsNobody'),
      ...(plan.showEveryList ? [t(everyList)] : []),
    ],
  };
}
