import { picker } from './form.js';

/** A channel the bot sees, as the lead's wiring reads it from the guild. */
export interface ChannelChoice {
  id: string;
  name: string;
  position: number;
  /** A text or announcement channel (src/setup/channel.ts POSTABLE_CHANNELS): the only kinds a feature posts in. */
  postable: boolean;
}

/** A role the bot sees; @everyone and bots' own roles are left out by the wiring or refused on saving. */
export interface RoleChoice {
  id: string;
  name: string;
  position: number;
}

/** Channels in the order Discord lists them, `#name` as members know them. */
export function channelPicker(
  name: string,
  channels: readonly ChannelChoice[],
  current: string | undefined,
  off: string,
  id?: string,
) {
  const choices = channels
    .filter((c) => c.postable)
    .sort((a, b) => a.position - b.position)
    .map((c) => ({ value: c.id, label: `#${c.name}` }));
  return picker(name, choices, current, { empty: off, ...(id ? { id } : {}) });
}

/** Roles highest first, as Discord's role list shows them. */
export function rolePicker(
  name: string,
  roles: readonly RoleChoice[],
  current: string | undefined,
  none?: string,
  id?: string,
) {
  const choices = [...roles].sort((a, b) => b.position - a.position).map((r) => ({ value: r.id, label: `@${r.name}` }));
  return picker(name, choices, current, { ...(none === undefined ? {} : { empty: none }), ...(id ? { id } : {}) });
}

/** `@name` of a role the bot sees, else its id: a role deleted since it was set still shows what it was. */
export function roleName(roles: readonly RoleChoice[], id: string): string {
  const role = roles.find((r) => r.id === id);
  return role ? `@${role.name}` : id;
}
