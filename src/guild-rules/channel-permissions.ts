import { PermissionFlagsBits } from 'discord-api-types/v10';

export interface Overwrite {
  id: string;
  /** 0 a role, 1 a member. */
  type: number;
  allow: string;
  deny: string;
}

export interface PermissionInputs {
  guildId: string;
  ownerId: string;
  memberId: string;
  memberRoles: readonly string[];
  /** The guild's roles; @everyone has the guild's id. */
  roles: ReadonlyArray<{ id: string; permissions: string }>;
  overwrites: readonly Overwrite[];
}

const ALL = Object.values(PermissionFlagsBits).reduce((all, bit) => all | bit, 0n);

/**
 * A member's permissions in a channel, as Discord computes them: the owner and Administrator have
 * everything; otherwise @everyone's and the member's roles, then the channel's @everyone overwrite,
 * the member's role overwrites together (deny, then allow), and the member's own overwrite.
 */
export function channelPermissions(input: PermissionInputs): bigint {
  if (input.memberId === input.ownerId) return ALL;
  const roleBits = new Map(input.roles.map((role) => [role.id, BigInt(role.permissions)]));
  let bits = roleBits.get(input.guildId) ?? 0n;
  for (const id of input.memberRoles) bits |= roleBits.get(id) ?? 0n;
  if ((bits & PermissionFlagsBits.Administrator) !== 0n) return ALL;

  const apply = (overwrite: { allow: bigint; deny: bigint } | undefined) => {
    if (overwrite) bits = (bits & ~overwrite.deny) | overwrite.allow;
  };
  const parse = (o: Overwrite) => ({ allow: BigInt(o.allow), deny: BigInt(o.deny) });
  const everyone = input.overwrites.find((o) => o.type === 0 && o.id === input.guildId);
  apply(everyone && parse(everyone));
  const roles = input.overwrites.filter((o) => o.type === 0 && input.memberRoles.includes(o.id)).map(parse);
  apply({ allow: roles.reduce((a, o) => a | o.allow, 0n), deny: roles.reduce((d, o) => d | o.deny, 0n) });
  const own = input.overwrites.find((o) => o.type === 1 && o.id === input.memberId);
  apply(own && parse(own));
  return bits;
}

/** Names of the wanted permissions the bits lack; none can be used without View Channel. */
export function missingPermissions(bits: bigint, wanted: readonly PermissionName[]): PermissionName[] {
  const canView = (bits & PermissionFlagsBits.ViewChannel) !== 0n;
  return wanted.filter((name) => !canView || (bits & PermissionFlagsBits[name]) === 0n);
}

export type PermissionName = keyof typeof PermissionFlagsBits;

/** 'SendMessages' → 'Send Messages', as Discord's settings name it. */
export function permissionLabel(name: PermissionName): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2');
}
