import type { Guild } from 'discord.js';
import { roleMention } from '../core/discord-text.js';
import { UserFacingError } from '../bot/user-error.js';
import { roleFix, roleProblemKinds } from '../guild-rules/role-permissions.js';
import { translatorFor, type Translator } from '../i18n/index.js';
import { changed, changeResult, type ApplyChange } from './change.js';
import { botInGuild } from '../guild-rules/guild-facts.js';
import { refuseEnvironmentSetting } from './manage-server.js';

/** Exactly one of the three, as role ids. */
export interface RoleInput {
  voter?: string;
  moderators?: string;
  remove?: string;
}

/** `/setup role voter:|moderators:|remove:`: exactly one of the three. */
export const applyRole: ApplyChange<RoleInput> = async (ctx, target, given, actor) => {
  const { guildId, guild } = target;
  const chosen = Object.values(given).filter((roleId) => roleId !== undefined);
  if (chosen.length !== 1) throw new UserFacingError('refusal.roleChoice');
  const role = (roleId: string) => () => ({ role: roleMention(roleId) });
  const done = (key: Parameters<typeof changeResult>[0], roleId: string, tone?: 'info') =>
    changed(ctx, target, actor, changeResult(key, role(roleId), tone));

  if (given.voter) {
    refuseEnvironmentSetting(ctx.servers, guildId, 'voterRoleId');
    if (!guild) throw new UserFacingError('refusal.serverUnseen');
    refuseRoleProblems(guild, given.voter, translatorFor(actor.locale));
    await ctx.setup.changes.setSettings(guildId, { voterRoleId: given.voter });
    return done('setup.role.voter', given.voter);
  }
  refuseEnvironmentSetting(ctx.servers, guildId, 'moderatorRoleIds');
  const current = ctx.servers.settings(guildId)?.moderatorRoleIds ?? [];
  if (given.moderators) {
    // Discord offers only the server's roles; a forged command or a dashboard form may name another id.
    if (guild && !guild.roles.cache.has(given.moderators))
      throw new UserFacingError('refusal.roleUnusable', {
        problems: translatorFor(actor.locale).t('role.problem.missing'),
        role: roleMention(given.moderators),
      });
    const roleIds = current.includes(given.moderators) ? current : [...current, given.moderators];
    await ctx.setup.changes.setSettings(guildId, { moderatorRoleIds: [...roleIds] });
    return done('setup.role.added', given.moderators);
  }
  const removed = given.remove!;
  if (!current.includes(removed)) return done('setup.role.notThere', removed, 'info');
  await ctx.setup.changes.setSettings(guildId, { moderatorRoleIds: current.filter((r) => r !== removed) });
  return done('setup.role.removed', removed);
};

/** The doctor's role rule on the cached server, worded for the member, with the kind of fix it needs. */
export function roleProblemsIn(
  guild: Guild,
  roleId: string,
  { t }: Translator,
): { problems: string[]; fix: ReturnType<typeof roleFix> } {
  const kinds = roleProblemKinds({ ...botInGuild(guild), roleId });
  return {
    problems: kinds.map((kind) => t(`role.problem.${kind}`, { role: roleMention(roleId) })),
    fix: roleFix(kinds),
  };
}

/** Refuses a role the bot could not give, saying whether another role or the bot's permissions are the fix. */
export function refuseRoleProblems(guild: Guild, roleId: string, i18n: Translator): void {
  const { problems, fix } = roleProblemsIn(guild, roleId, i18n);
  if (problems.length > 0)
    throw new UserFacingError(fix === 'anotherRole' ? 'refusal.roleUnusable' : 'refusal.roleProblem', {
      problems: problems.join('; '),
      role: roleMention(roleId),
    });
}
