import { MILESTONE_PERIODS, MILESTONE_VOTES_MAX } from '../../setup/milestone.js';
import type { Milestone } from '../../store/index.js';
import { STREAK_GRACE_HOURS_MAX } from '../../streaks/streak.js';
import { html, type Html } from '../html.js';
import { channelForm, type ChannelsPageInput } from './channels.js';
import { roleName, rolePicker } from './choices.js';
import { picker, PAGES, postForm, problemList } from './form.js';

/**
 * The fields of the rewards page's forms, each form one change: a milestone (`milestoneRole`,
 * `votes`, `period`) or its removal (`milestoneRemove`), the streak window (`graceHours`), the
 * voter role (`voterRole`). The reminders' channel is the channels page's form for `kind` reminders, posted here.
 */
export const REWARD_FIELDS = {
  milestoneRole: 'milestoneRole',
  votes: 'votes',
  period: 'period',
  milestoneRemove: 'milestoneRemove',
  graceHours: 'graceHours',
  voterRole: 'voterRole',
} as const;

export interface RewardsPageInput extends ChannelsPageInput {
  milestones: readonly Pick<Milestone, 'roleId' | 'votes' | 'period' | 'parked'>[];
  /** Hours after a vote runs out in which the next keeps the streak going (the setting, or its default). */
  graceHours: number;
  voterRoleId: string | undefined;
  /** What keeps the bot from giving each role (voter and milestone roles), by role id, in the member's words. */
  roleProblems: Readonly<Record<string, readonly string[]>>;
}

/** Milestone roles, the streak window, the voter role and the reminders' channel: the current values and a form each. */
export function rewardsPage(input: RewardsPageInput): Html {
  const { t } = input.i18n;
  return html`<section class="rewards">
    <h2>${t('dashboard.pages.rewards.voterRole')}</h2>
    ${voterRole(input)}
    <h2>${t('setup.milestone.list.title')}</h2>
    ${milestones(input)}
    <h2>${t('dashboard.pages.rewards.streak')}</h2>
    ${streak(input)}
    <h2>${t('dashboard.pages.rewards.reminders')}</h2>
    ${channelForm(input, 'reminders', PAGES.rewards)}
  </section>`;
}

function voterRole(input: RewardsPageInput): Html {
  const { t } = input.i18n;
  const current = input.voterRoleId;
  const body = html`<label for="voter-role">${t('dashboard.pages.rewards.voterRoleLabel')}</label>
    ${rolePicker(REWARD_FIELDS.voterRole, input.roles, current, t('dashboard.pages.notSet'), 'voter-role')}
    <button type="submit">${t('dashboard.pages.save')}</button>
    ${current === undefined ? null : problemList(input.roleProblems[current] ?? [])}`;
  return postForm(input, PAGES.rewards, body, 'form card');
}

function milestones(input: RewardsPageInput): Html {
  const { i18n } = input;
  const { t } = i18n;
  const rows = input.milestones.map((m) => {
    const remove = postForm(
      input,
      PAGES.rewards,
      html`<input type="hidden" name="${REWARD_FIELDS.milestoneRemove}" value="${m.roleId}" />
        <button type="submit">${t('dashboard.pages.remove')}</button>`,
      'form inline',
    );
    const parked =
      m.parked === null ? null : t(`setup.milestone.list.parked.${m.parked === 'unknown' ? 'unknown' : 'access'}`);
    return html`<li>
      ${t('setup.milestone.list.line', {
        role: roleName(input.roles, m.roleId),
        votes: m.votes,
        period: t(`setup.milestone.period.${m.period}`),
      })}
      ${parked} ${problemList(input.roleProblems[m.roleId] ?? [])} ${remove}
    </li>`;
  });
  const list =
    rows.length === 0
      ? html`<p>${t('dashboard.pages.rewards.noMilestones')}</p>`
      : html`<ul class="milestones">
          ${rows}
        </ul>`;
  const periods = MILESTONE_PERIODS.map((p) => ({ value: p, label: t(`setup.milestone.period.${p}`) }));
  const add = postForm(
    input,
    PAGES.rewards,
    html`<label for="milestone-role">${t('dashboard.pages.rewards.milestoneRole')}</label>
      ${rolePicker(REWARD_FIELDS.milestoneRole, input.roles, undefined, undefined, 'milestone-role')}
      <label for="milestone-votes">${t('dashboard.pages.rewards.milestoneVotes')}</label>
      <input
        type="number"
        id="milestone-votes"
        name="${REWARD_FIELDS.votes}"
        min="1"
        max="${MILESTONE_VOTES_MAX}"
        step="1"
        required
      />
      <label for="milestone-period">${t('dashboard.pages.rewards.milestonePeriod')}</label>
      ${picker(REWARD_FIELDS.period, periods, 'month', { id: 'milestone-period' })}
      <button type="submit">${t('dashboard.pages.add')}</button>`,
    'form card',
  );
  return html`${list}${add}`;
}

function streak(input: RewardsPageInput): Html {
  const { t } = input.i18n;
  const body = html`<label for="grace-hours">${t('dashboard.pages.rewards.graceHours')}</label>
    <input
      type="number"
      id="grace-hours"
      name="${REWARD_FIELDS.graceHours}"
      min="0"
      max="${STREAK_GRACE_HOURS_MAX}"
      step="1"
      value="${input.graceHours}"
      required
    />
    <button type="submit">${t('dashboard.pages.save')}</button>`;
  return postForm(input, PAGES.rewards, body, 'form card');
}
