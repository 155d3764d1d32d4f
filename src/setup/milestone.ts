import { roleMention } from '../core/discord-text.js';
import type { BaseContext } from '../runtime/context.js';
import { UserFacingError } from '../bot/user-error.js';
import { translatorFor, type Translator } from '../i18n/index.js';
import type { Milestone, MilestonePeriod } from '../store/index.js';
import type { MessageView } from '../views/message.js';
import { noticeView } from '../views/notice.js';
import { setupAnswer } from './answer.js';
import { changeAnswer, changed, changeResult, type ApplyChange } from './change.js';
import type { SetupCall } from './steps.js';
import { refuseRoleProblems } from './role.js';

/** Votes a milestone may ask for: a month holds a few dozen vote periods at most, all time many more. */
export const MILESTONE_VOTES_MAX = 10_000;
/** Milestones per server: each is checked on every recorded vote. */
const MILESTONES_MAX = 25;
export const MILESTONE_PERIODS: readonly MilestonePeriod[] = ['month', 'all'];

const COMMAND = '`/setup milestone`';

/** A milestone to set (role, votes, period) or one to remove, as role ids. */
export interface MilestoneInput {
  roleId?: string;
  votes?: number;
  /** A `MilestonePeriod`; month when left out. */
  period?: string;
  remove?: string;
}

/**
 * `/setup milestone role: votes: [period:]` sets the role's milestone, `remove:` removes it, and no
 * option lists them.
 */
export async function milestoneAnswer(
  ctx: BaseContext,
  input: MilestoneInput,
  { target, actor, i18n }: SetupCall,
): Promise<MessageView> {
  if (Object.values(input).every((value) => value === undefined))
    return milestoneList(await ctx.setup.milestones(target.guildId).milestones(), i18n);
  return changeAnswer(await applyMilestone(ctx, target, input, actor), i18n);
}

export const applyMilestone: ApplyChange<MilestoneInput> = async (
  ctx,
  target,
  { roleId, votes, period, remove },
  actor,
) => {
  const { guildId, guild } = target;
  const store = ctx.setup.milestones(guildId);
  if (remove !== undefined && roleId === undefined && votes === undefined && period === undefined) {
    const role = () => ({ role: roleMention(remove) });
    if (!(await store.removeMilestone(remove)))
      return changed(ctx, target, actor, changeResult('setup.milestone.notThere', role, 'info'));
    ctx.setup.milestonesChanged(guildId);
    return changed(ctx, target, actor, changeResult('setup.milestone.removed', role));
  }
  if (remove !== undefined || roleId === undefined || votes === undefined)
    throw new UserFacingError('refusal.milestoneChoice');

  // Discord bounds the number and the choice; a forged interaction or form is refused all the same.
  if (!Number.isInteger(votes) || votes < 1 || votes > MILESTONE_VOTES_MAX)
    throw new UserFacingError('refusal.milestoneVotes', { max: MILESTONE_VOTES_MAX });
  const chosen = (period ?? 'month') as MilestonePeriod;
  if (!MILESTONE_PERIODS.includes(chosen)) throw new UserFacingError('refusal.milestoneChoice');
  if (!guild) throw new UserFacingError('refusal.serverUnseen');
  if (roleId === ctx.servers.settings(guildId)?.voterRoleId)
    throw new UserFacingError('refusal.milestoneVoterRole', { role: roleMention(roleId) });
  refuseRoleProblems(guild, roleId, translatorFor(actor.locale));
  const existing = await store.milestones();
  if (existing.length >= MILESTONES_MAX && !existing.some((m) => m.roleId === roleId))
    throw new UserFacingError('refusal.milestoneLimit', { max: MILESTONES_MAX, command: COMMAND });
  await store.setMilestone({ roleId, votes, period: chosen, createdAt: ctx.now().getTime() });
  ctx.setup.milestonesChanged(guildId);
  const vars = (i18n: Translator) => ({
    role: roleMention(roleId),
    votes,
    period: i18n.t(`setup.milestone.period.${chosen}`),
  });
  return changed(ctx, target, actor, changeResult('setup.milestone.set', vars));
};

function milestoneList(milestones: readonly Milestone[], i18n: Translator): MessageView {
  if (milestones.length === 0) return setupAnswer('setup.milestone.none', { command: COMMAND }, i18n, 'info');
  const lines = milestones.map((m) => {
    const line = i18n.t('setup.milestone.list.line', {
      role: roleMention(m.roleId),
      votes: m.votes,
      period: i18n.t(`setup.milestone.period.${m.period}`),
    });
    const parked = m.parked === 'unknown' ? 'unknown' : 'access';
    return m.parked === null ? line : `${line} ${i18n.t(`setup.milestone.list.parked.${parked}`)}`;
  });
  return noticeView({ tone: 'info', title: i18n.t('setup.milestone.list.title'), description: lines.join('\n'), i18n });
}
