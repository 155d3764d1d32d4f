import { botInGuild, fail, pass, skip, type Check, type DoctorState, type Outcome } from './check.js';
import { roleFix, roleProblemKinds, roleProblems } from '../guild-rules/role-permissions.js';
import { rolesToCheck, type RoleToCheck } from '../guild-rules/roles.js';

/** One check per role in rolesToCheck. */
export function discordRoleChecks(state: DoctorState): Check[] {
  // With many servers the .env's channel and role settings are no server's: each server's own are
  // checked with --server <id> (which sets the server) or its /setup status.
  if (!state.config || state.config.discord.guildId === undefined) return [];
  return rolesToCheck(state.config).map((role) => ({
    name: `${role.label} (${role.setting})`,
    run: async (s) => checkRole(s, role),
  }));
}

export function checkRole(state: DoctorState, role: RoleToCheck): Outcome {
  if (role.id === undefined) return pass('not set; no role is given.');
  const { guild, bot, botMember } = state;
  if (!guild || !bot || !botMember) return skip('needs the bot in the server.');
  const inputs = { ...botInGuild(guild, bot, botMember), roleId: role.id };
  const problems = roleProblems(inputs);
  if (problems.length > 0)
    return fail(
      `${problems.join('; ')}.`,
      roleFix(roleProblemKinds(inputs)) === 'anotherRole'
        ? `Set ${role.setting} to a role the bot can give: one that exists, not @everyone, not a bot's or integration's role.`
        : `Server Settings → Roles: give the bot's role Manage Roles and drag it above the role in ${role.setting}.`,
    );
  const name = guild.roles.find((r) => r.id === role.id)?.name ?? role.id;
  return pass(`the bot can give and take @${name}.`);
}
