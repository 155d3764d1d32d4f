/**
 * Who makes a change or posts a reply, and from where. `/setup`, the Reply button and the dashboard
 * call the same functions with it; only `via` tells them apart.
 */
export interface Actor {
  readonly userId: string;
  /** The member's display name; the dashboard always knows it, a command may not. */
  readonly name?: string;
  readonly via: 'command' | 'dashboard';
  /** The member's language (a Discord locale), for refusals that quote checks worded for them. */
  readonly locale: string;
}

/** The member behind a command, button or form, as an actor. */
export function commandActor(interaction: { user: { id: string }; member: unknown; locale: string }): Actor {
  const member = interaction.member;
  const name = member && typeof member === 'object' && 'displayName' in member ? String(member.displayName) : undefined;
  return { userId: interaction.user.id, name, via: 'command', locale: interaction.locale };
}
