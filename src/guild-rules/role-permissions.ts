import { PermissionFlagsBits } from 'discord.js';

export interface RoleInputs {
  guildId: string;
  ownerId: string;
  memberId: string;
  memberRoles: readonly string[];
  roles: ReadonlyArray<{ id: string; name: string; position: number; permissions: string; managed?: boolean }>;
  roleId: string;
}

/** Why the bot could not give or take a role; `/setup` words each in the member's language. */
export type RoleProblem = 'missing' | 'manageRoles' | 'position' | 'managed';

/**
 * Why the bot could not give or take a role, in Discord's terms: it needs Manage Roles (or
 * Administrator, or to own the server), and the role must sit below the bot's highest role and not
 * be managed by an integration. Empty when it can.
 */
export function roleProblemKinds(input: RoleInputs): RoleProblem[] {
  const role = input.roles.find((r) => r.id === input.roleId);
  if (!role) return ['missing'];
  if (input.memberId === input.ownerId) return [];
  const held = input.roles.filter((r) => r.id === input.guildId || input.memberRoles.includes(r.id));
  const bits = held.reduce((all, r) => all | BigInt(r.permissions), 0n);
  const problems: RoleProblem[] = [];
  if ((bits & (PermissionFlagsBits.ManageRoles | PermissionFlagsBits.Administrator)) === 0n)
    problems.push('manageRoles');
  const highest = Math.max(0, ...held.map((r) => r.position));
  if (role.position >= highest) problems.push('position');
  if (role.managed) problems.push('managed');
  return problems;
}

/** The problems as the doctor prints them, in English. */
export function roleProblems(input: RoleInputs): string[] {
  const name = input.roles.find((r) => r.id === input.roleId)?.name;
  const words: Record<RoleProblem, string> = {
    missing: `role ${input.roleId} does not exist in the server`,
    manageRoles: 'the bot lacks Manage Roles',
    position: `@${name} is not below the bot's highest role`,
    managed: `@${name} is managed by an integration and cannot be given`,
  };
  return roleProblemKinds(input).map((kind) => words[kind]);
}
