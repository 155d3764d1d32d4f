import type { Guild } from 'discord.js';
import { utcText } from '../views/format.js';

/** Names for the mentions Discord text holds; one not known stays as Discord writes it. */
export interface MentionNames {
  channel(id: string): string | undefined;
  role(id: string): string | undefined;
  member(id: string): string | undefined;
}

/** The server's channels and roles as the bot sees them, and the members a page knows by name. */
export function guildNames(guild: Guild, members: Readonly<Record<string, string | undefined>> = {}): MentionNames {
  return {
    channel: (id) => guild.channels.cache.get(id)?.name,
    role: (id) => guild.roles.cache.get(id)?.name,
    member: (id) => members[id] ?? guild.members.cache.get(id)?.displayName,
  };
}

const named =
  (names: MentionNames | undefined, kind: keyof MentionNames, prefix: string) => (whole: string, id: string) => {
    const name = names?.[kind](id);
    return name === undefined ? whole : `${prefix}${name}`;
  };

/**
 * Text worded for Discord (the /setup notices, previews and status lines) as a page shows it: channel,
 * role and member mentions by name, Discord's timestamps (`<t:…:R>`) as the UTC time they stand for,
 * bold and code marks dropped.
 */
export function plainText(text: string, names?: MentionNames): string {
  return text
    .replace(/<#(\d{17,20})>/g, named(names, 'channel', '#'))
    .replace(/<@&(\d{17,20})>/g, named(names, 'role', '@'))
    .replace(/<@!?(\d{17,20})>/g, named(names, 'member', '@'))
    .replace(/<t:(\d{1,13})(?::[tTdDfFR])?>/g, (_whole, seconds: string) => utcText(Number(seconds) * 1000))
    .replace(/\*\*|`/g, '');
}
