import type { Guild } from 'discord.js';

/**
 * Text worded for Discord (the notices and previews /setup shows) as a page shows it: bold and code
 * marks dropped, channel and role mentions as `#name` and `@name` of the server (the id when the bot
 * no longer sees them). Member mentions stay as Discord writes them: the page does not know members.
 */
export function plainText(text: string, guild?: Guild): string {
  return text
    .replaceAll('**', '')
    .replaceAll('`', '')
    .replace(/<#(\d+)>/g, (_all, id: string) => `#${guild?.channels.cache.get(id)?.name ?? id}`)
    .replace(/<@&(\d+)>/g, (_all, id: string) => `@${guild?.roles.cache.get(id)?.name ?? id}`);
}
