import { roleMention, type ChatInputCommandInteraction } from 'discord.js';
import type { BaseContext } from '../runtime/context.js';
import { setupName } from '../bot/command-options.js';
import { UserFacingError } from '../bot/user-error.js';
import { translatorFor, type Translator } from '../i18n/index.js';
import type { Milestone, MilestonePeriod } from '../store/index.js';
import type { MessageView } from '../views/message.js';
import { noticeView } from '../views/notice.js';
import { setupAnswer } from './answer.js';
import { refuseRoleProblems } from './role.js';

/** Votes a milestone may ask for: a month holds a few dozen vote periods at most, all time many more. */
export const MILESTONE_VOTES_MAX = 10_000;
/** Milestones per server: each is checked on every recorded vote. */
export const MILESTONES_MAX = 25;
export const MILESTONE_PERIODS: readonly MilestonePeriod[] = ['month', 'all'];

const COMMAND = '`/setup milestone`';

/**
 * `/setup milestone role: votes: [period:]` sets the role's milestone, `remove:` removes it, and no
 * option lists them.
 */
export async function setMilestone(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const guildId = interaction.guildId!;
  const i18n = translatorFor(interaction.locale);
  const role = interaction.options.getRole(setupName('milestoneRole'));
  const votes = interaction.options.getInteger(setupName('votes'));
  const period = interaction.options.getString(setupName('period'));
  const remove = interaction.options.getRole(setupName('milestoneRemove'));
  const store = ctx.setup.milestones(guildId);
  if (remove && !role && votes === null && period === null) {
    if (!(await store.removeMilestone(remove.id)))
      return setupAnswer('setup.milestone.notThere', { role: roleMention(remove.id) }, i18n, 'info');
    ctx.setup.milestonesChanged(guildId);
    return setupAnswer('setup.milestone.removed', { role: roleMention(remove.id) }, i18n);
  }
  if (!remove && !role && votes === null && period === null) return milestoneList(await store.milestones(), i18n);
  if (remove || !role || votes === null) throw new UserFacingError('refusal.milestoneChoice');

  // Discord bounds the number and the choice; a forged interaction is refused all the same.
  if (!Number.isInteger(votes) || votes < 1 || votes > MILESTONE_VOTES_MAX)
    throw new UserFacingError('refusal.milestoneVotes', { max: MILESTONE_VOTES_MAX });
  const chosen = (period ?? 'month') as MilestonePeriod;
  if (!MILESTONE_PERIODS.includes(chosen)) throw new UserFacingError('refusal.milestoneChoice');
  if (!interaction.guild) throw new UserFacingError('refusal.wrongServer');
  if (role.id === ctx.servers.settings(guildId)?.voterRoleId)
    throw new UserFacingError('refusal.milestoneVoterRole', { role: roleMention(role.id) });
  refuseRoleProblems(interaction.guild, role.id, i18n);
  const existing = await store.milestones();
  if (existing.length >= MILESTONES_MAX && !existing.some((m) => m.roleId === role.id))
    throw new UserFacingError('refusal.milestoneLimit', { max: MILESTONES_MAX, command: COMMAND });
  await store.setMilestone({ roleId: role.id, votes, period: chosen, createdAt: ctx.now().getTime() });
  ctx.setup.milestonesChanged(guildId);
  return setupAnswer(
    'setup.milestone.set',
    { role: roleMention(role.id), votes, period: i18n.t(`setup.milestone.period.${chosen}`) },
    i18n,
  );
}

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
