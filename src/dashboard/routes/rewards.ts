import { HOUR_MS } from '../../lists/index.js';
import { applyMilestone } from '../../setup/milestone.js';
import { applyRole, roleProblemsIn } from '../../setup/role.js';
import { applyStreak } from '../../setup/streak.js';
import { DEFAULT_STREAK_GRACE_HOURS } from '../../streaks/streak.js';
import type { Form } from '../form-body.js';
import { html } from '../html.js';
import { CHANNEL_FIELDS } from '../pages/channels.js';
import { PAGES } from '../pages/form.js';
import { REWARD_FIELDS, rewardsPage } from '../pages/rewards.js';
import { channelChange, channelsInput } from './channel-choices.js';
import type { At, PageRoutes } from './kit.js';
import { chosen, settingsPageRoutes, whole, type SettingsPage } from './settings-change.js';

const show: SettingsPage = async ({ kit, request, reply, v }, notice, status = 200) => {
  const { base } = kit.deps;
  const { guild, i18n } = v;
  const settings = base.servers.settings(guild.id);
  const milestones = await base.setup.milestones(guild.id).milestones();
  const voterRoleId = settings?.voterRoleId;
  const roleIds = [...(voterRoleId === undefined ? [] : [voterRoleId]), ...milestones.map((m) => m.roleId)];
  const roleProblems = Object.fromEntries(roleIds.map((id) => [id, roleProblemsIn(guild, id, i18n).problems]));
  const body = rewardsPage({
    ...channelsInput(base, v),
    milestones,
    graceHours: settings ? Math.round(settings.streakGraceMs / HOUR_MS) : DEFAULT_STREAK_GRACE_HOURS,
    voterRoleId,
    roleProblems,
  });
  return kit.send(request, reply, v, 'rewards', html`${notice}${body}`, status);
};

/** One of the page's forms: a milestone removed or added, the reminders' channel, the streak's grace, the voter role. */
const change =
  ({ kit: { deps }, v }: At, form: Form) =>
  () => {
    const { base } = deps;
    if (form[REWARD_FIELDS.milestoneRemove] !== undefined)
      return applyMilestone(base, v.target, { remove: chosen(form[REWARD_FIELDS.milestoneRemove]) }, v.actor);
    if (form[REWARD_FIELDS.milestoneRole] !== undefined) {
      const input = {
        roleId: chosen(form[REWARD_FIELDS.milestoneRole]),
        votes: whole(form[REWARD_FIELDS.votes]),
        period: chosen(form[REWARD_FIELDS.period]),
      };
      return applyMilestone(base, v.target, input, v.actor);
    }
    if (form[CHANNEL_FIELDS.kind] !== undefined) return channelChange(base, form, v);
    if (form[REWARD_FIELDS.graceHours] !== undefined)
      return applyStreak(base, v.target, { graceHours: whole(form[REWARD_FIELDS.graceHours]) }, v.actor);
    return applyRole(base, v.target, { voter: chosen(form[REWARD_FIELDS.voterRole]) }, v.actor);
  };

/** Rewards and reminders: the voter role, milestone roles, the streak's grace and the reminders' channel. */
export const rewardsRoutes: PageRoutes = (app, kit) => settingsPageRoutes(app, kit, PAGES.rewards, { show, change });
