import { PermissionFlagsBits } from 'discord.js';

export interface RoleInputs {
  guildId: string;
  ownerId: string;
  memberId: string;
  memberRoles: readonly string[];
  roles: ReadonlyArray<{ id: string; name: string; position: number; permissions: string; managed?: boolean }>;
  roleId: string;
}

/**
 * Why the bot could not give or take a role, in Discord's terms: it needs Manage Roles (or
 * Administrator, or to own the server), and the role must sit below the bot's highest role and not
 * be managed by an integration. Empty when it can.
 */
export function roleProblems(input: RoleInputs): string[] {
  const role = input.roles.find((r) => r.id === input.roleId);
  if (!role) return [`role ${input.roleId} does not exist in the server`];
  if (input.memberId === input.ownerId) return [];
  const held = input.roles.filter((r) => r.id === input.guildId || input.memberRoles.includes(r.id));
  const bits = held.reduce((all, r) => all | BigInt(r.permissions), 0n);
  const problems: string[] = [];
  if ((bits & (PermissionFlagsBits.ManageRoles | PermissionFlagsBits.Administrator)) === 0n)
    problems.push('the bot lacks Manage Roles');
  const highest = Math.max(0, ...held.map((r) => r.position));
  if (role.position >= highest) problems.push(`@${role.name} is not below the bot's highest role`);
  if (role.managed) problems.push(`@${role.name} is managed by an integration and cannot be given`);
  return problems;
}
