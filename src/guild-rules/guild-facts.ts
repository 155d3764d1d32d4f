import type { Guild, GuildBasedChannel } from 'discord.js';
import type { Overwrite } from './channel-permissions.js';

/** The bot in a server, as the doctor's permission rules read it: from what discord.js has cached. */
export interface BotInGuild {
  guildId: string;
  ownerId: string;
  memberId: string;
  memberRoles: string[];
  roles: Array<{ id: string; name: string; position: number; permissions: string; managed: boolean }>;
}

export function botInGuild(guild: Guild): BotInGuild {
  const me = guild.members.me;
  return {
    guildId: guild.id,
    ownerId: guild.ownerId,
    memberId: guild.client.user.id,
    memberRoles: me ? [...me.roles.cache.keys()].filter((id) => id !== guild.id) : [],
    roles: guild.roles.cache.map((role) => ({
      id: role.id,
      name: role.name,
      position: role.position,
      permissions: role.permissions.bitfield.toString(),
      managed: role.managed,
    })),
  };
}

/** A channel's permission overwrites in the shape the doctor reads (0 a role, 1 a member). */
export function overwritesOf(channel: GuildBasedChannel): Overwrite[] {
  if (!('permissionOverwrites' in channel)) return [];
  return channel.permissionOverwrites.cache.map((o) => ({
    id: o.id,
    type: o.type,
    allow: o.allow.bitfield.toString(),
    deny: o.deny.bitfield.toString(),
  }));
}
