import { PermissionFlagsBits } from 'discord-api-types/v10';

export interface RoleInputs {
  guildId: string;
  ownerId: string;
  memberId: string;
  memberRoles: readonly string[];
  roles: ReadonlyArray<{ id: string; name: string; position: number; permissions: string; managed?: boolean }>;
  roleId: string;
}

/** Why the bot could not give or take a role; `/setup` words each in the member's language. */
export type RoleProblem = 'missing' | 'everyone' | 'managed' | 'manageRoles' | 'position';

/**
 * Problems no permission mends: the role is gone, is @everyone (every member holds it, and Discord
 * answers a change to it with an error), or is a bot's or integration's role, which only Discord
 * gives. The fix is another role, not Manage Roles.
 */
const ANOTHER_ROLE: ReadonlySet<RoleProblem> = new Set(['missing', 'everyone', 'managed']);

/** What the admin must do about these problems: choose another role, or give the bot its permissions. */
export function roleFix(problems: readonly RoleProblem[]): 'anotherRole' | 'permissions' {
  return problems.some((problem) => ANOTHER_ROLE.has(problem)) ? 'anotherRole' : 'permissions';
}

/**
 * Why the bot could not give or take a role, in Discord's terms. The role must exist, must not be
 * @everyone (its id is the server's) and must not be managed by a bot or an integration; then the
 * bot needs Manage Roles (or Administrator, or to own the server), and the role must sit below the
 * bot's highest role. Empty when it can. A role that no permission could make usable is named alone.
 */
export function roleProblemKinds(input: RoleInputs): RoleProblem[] {
  const role = input.roles.find((r) => r.id === input.roleId);
  if (!role) return ['missing'];
  if (role.id === input.guildId) return ['everyone'];
  if (role.managed) return ['managed'];
  if (input.memberId === input.ownerId) return [];
  const held = input.roles.filter((r) => r.id === input.guildId || input.memberRoles.includes(r.id));
  const bits = held.reduce((all, r) => all | BigInt(r.permissions), 0n);
  const problems: RoleProblem[] = [];
  if ((bits & (PermissionFlagsBits.ManageRoles | PermissionFlagsBits.Administrator)) === 0n)
    problems.push('manageRoles');
  const highest = Math.max(0, ...held.map((r) => r.position));
  if (role.position >= highest) problems.push('position');
  return problems;
}

/** The problems as the doctor prints them, in English. */
export function roleProblems(input: RoleInputs): string[] {
  const name = input.roles.find((r) => r.id === input.roleId)?.name;
  const words: Record<RoleProblem, string> = {
    missing: `role ${input.roleId} does not exist in the server`,
    everyone: '@everyone is every member of the server and cannot be given or taken',
    manageRoles: 'the bot lacks Manage Roles',
    position: `@${name} is not below the bot's highest role`,
    managed: `@${name} is managed by an integration and cannot be given`,
  };
  return roleProblemKinds(input).map((kind) => words[kind]);
}
