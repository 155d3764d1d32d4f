import type { Translator } from '../../i18n/index.js';
import { CHANNEL_KINDS, type ChannelKind } from '../../setup/channel.js';
import { html, type Html } from '../html.js';
import { channelPicker, roleName, rolePicker, type ChannelChoice, type RoleChoice } from './choices.js';
import { PAGES, postForm, problemList, type FormTarget, type PagePath } from './form.js';

/**
 * The fields of the channels-and-roles forms: `kind` (review, votes, audit, reminders) with its
 * `channel` (empty: off), or `moderatorAdd` / `moderatorRemove` with a role id.
 */
export const CHANNEL_FIELDS = {
  kind: 'kind',
  channel: 'channel',
  moderatorAdd: 'moderatorAdd',
  moderatorRemove: 'moderatorRemove',
} as const;

export const CHANNEL_KIND_NAMES = Object.keys(CHANNEL_KINDS) as ChannelKind[];

export interface ChannelsPageInput extends FormTarget {
  channels: readonly ChannelChoice[];
  roles: readonly RoleChoice[];
  /** Each feature's channel now; undefined: off. */
  current: Readonly<Partial<Record<ChannelKind, string>>>;
  /** What the bot lacks in each feature's channel, as guild-rules finds it, already in the member's words. */
  channelProblems: Readonly<Partial<Record<ChannelKind, readonly string[]>>>;
  moderatorRoleIds: readonly string[];
  /** Settings fixed by the host's environment, with the variable that sets each: shown, not offered for change. */
  fixed?: ReadonlyMap<ChannelKind | 'moderatorRoleIds', string>;
  i18n: Translator;
}

/** Channels and roles: one picker per feature's channel, with what the bot lacks there, and the moderator roles. */
export function channelsPage(input: ChannelsPageInput): Html {
  const { t } = input.i18n;
  return html`<section class="channels">
    ${CHANNEL_KIND_NAMES.map((kind) => channelForm(input, kind))}
    <h2>${t('dashboard.pages.channels.moderators')}</h2>
    <p class="note">${t('dashboard.pages.channels.moderatorsNote')}</p>
    ${moderators(input)}
  </section>`;
}

/**
 * One feature's channel picker (the reminders page shows the same form); `page` is where the form
 * posts, so a save comes back to the page it was on.
 */
export function channelForm(input: ChannelsPageInput, kind: ChannelKind, page: PagePath = PAGES.channels): Html {
  const { t } = input.i18n;
  const id = `channel-${kind}`;
  const variable = input.fixed?.get(kind);
  if (variable !== undefined) {
    const current = input.current[kind];
    const name = input.channels.find((channel) => channel.id === current)?.name;
    return html`<div class="form card fixed">
      <span class="label">${t(`setup.kind.${kind}`)}</span>
      <strong>${current === undefined ? t('dashboard.pages.off') : `#${name ?? current}`}</strong>
      <p class="note">${fixedBy(variable, input.i18n)}</p>
      ${problemList(input.channelProblems[kind] ?? [])}
    </div>`;
  }
  const body = html`<label for="${id}">${t(`setup.kind.${kind}`)}</label>
    <input type="hidden" name="${CHANNEL_FIELDS.kind}" value="${kind}" />
    ${channelPicker(CHANNEL_FIELDS.channel, input.channels, input.current[kind], t('dashboard.pages.off'), id)}
    <button type="submit">${t('dashboard.pages.save')}</button>
    ${problemList(input.channelProblems[kind] ?? [])}`;
  return postForm(input, page, body, 'form card');
}

/** Where a setting fixed by the host is changed: its variable, by name. */
const fixedBy = (variable: string, { t }: Translator) => t('dashboard.pages.fixed', { variable });

function moderators(input: ChannelsPageInput): Html {
  const { t } = input.i18n;
  const variable = input.fixed?.get('moderatorRoleIds');
  if (variable !== undefined)
    return html`<ul>
        ${input.moderatorRoleIds.map((id) => html`<li>${roleName(input.roles, id)}</li>`)}
      </ul>
      <p class="note">${fixedBy(variable, input.i18n)}</p>`;
  const current = input.moderatorRoleIds.map((id) =>
    postForm(
      input,
      PAGES.channels,
      html`<span>${roleName(input.roles, id)}</span>
        <input type="hidden" name="${CHANNEL_FIELDS.moderatorRemove}" value="${id}" />
        <button type="submit">${t('dashboard.pages.remove')}</button>`,
      'form inline',
    ),
  );
  const others = input.roles.filter((r) => !input.moderatorRoleIds.includes(r.id));
  const add = postForm(
    input,
    PAGES.channels,
    html`<label for="moderator-add">${t('dashboard.pages.channels.addModerator')}</label>
      ${rolePicker(CHANNEL_FIELDS.moderatorAdd, others, undefined, undefined, 'moderator-add')}
      <button type="submit">${t('dashboard.pages.add')}</button>`,
  );
  return html`${current}${add}`;
}
