/** A server in GET /users/@me/guilds, as Discord sends it. */
export interface PartialGuild {
  readonly id: string;
  readonly owner?: boolean;
  /** The member's permissions there, bits as a decimal string (beyond 2^53: read as a BigInt). */
  readonly permissions?: string;
}

const ADMINISTRATOR = 1n << 3n;
const MANAGE_GUILD = 1n << 5n;

/** The servers the member may set up: owner, or Manage Server or Administrator there. */
export function manageableGuildIds(guilds: readonly PartialGuild[]): string[] {
  return guilds
    .filter((guild) => {
      if (guild.owner === true) return true;
      let bits: bigint;
      try {
        bits = BigInt(guild.permissions ?? '0');
      } catch {
        return false;
      }
      return (bits & (ADMINISTRATOR | MANAGE_GUILD)) !== 0n;
    })
    .map((guild) => guild.id);
}
