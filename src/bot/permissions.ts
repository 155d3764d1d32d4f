import { GuildMemberRoleManager, PermissionFlagsBits, type Interaction } from 'discord.js';
import type { NoticeKey } from '../i18n/index.js';
import { UserFacingError } from './user-error.js';

/**
 * Who may use a command or a component, declared beside it and checked by the router before the
 * handler runs (on every click and every submit: a button can be pressed by anyone who sees it
 * and a form can be forged). `member`: anyone in the server; `moderator`: Manage Server or one of
 * the server's moderator roles; `manageServer`: Manage Server only (/setup and its forms).
 */
export const GATES = ['member', 'moderator', 'manageServer'] as const;
export type Gate = (typeof GATES)[number];

/** A handler's declared gate, and the refusal it shows instead of its gate's usual one. */
export interface Gated {
  gate?: Gate;
  refusal?: NoticeKey;
}

const REFUSALS: Record<Exclude<Gate, 'member'>, NoticeKey> = {
  moderator: 'refusal.moderatorsOnly',
  manageServer: 'refusal.manageServer',
};

/** Permissions come from the interaction's own member payload, which Discord computes per interaction. */
function hasManageServer(interaction: Interaction): boolean {
  return interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) === true;
}

/** A moderator has Manage Server or one of the configured roles. */
export function isModerator(interaction: Interaction, moderatorRoleIds: readonly string[]): boolean {
  if (hasManageServer(interaction)) return true;
  const roles = interaction.member?.roles;
  if (!roles || moderatorRoleIds.length === 0) return false;
  // A cached guild gives a role manager; an uncached one leaves the raw id array.
  if (roles instanceof GuildMemberRoleManager) return roles.cache.hasAny(...moderatorRoleIds);
  return moderatorRoleIds.some((id) => roles.includes(id));
}

/** Refuses the interaction unless its member passes the handler's gate, saying who may. */
export function checkGate(
  interaction: Interaction,
  { gate = 'member', refusal }: Gated,
  moderatorRoleIds: readonly string[],
): void {
  if (gate === 'member') return;
  const passes = gate === 'moderator' ? isModerator(interaction, moderatorRoleIds) : hasManageServer(interaction);
  if (!passes) throw new UserFacingError(refusal ?? REFUSALS[gate]);
}
