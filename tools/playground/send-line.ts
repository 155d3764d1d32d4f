import { isAdaptedSiteId, SITE_IDS, type AdaptedSiteId } from '../../src/lists/index.js';
import { OptionType, type CommandOption } from '../discord-standin/index.js';
import { alice, CAST, findPerson, type Person } from './cast.js';

/* What `npm run playground -- send …` (or the curl line) asks for, read from its words: a slash
 * command as a member would type it in Discord, or a delivery as Guilds would send it. Pure: the
 * commands' definitions come in from the bot's own builders, so a new option needs no change here. */

/** A command's definition as its builder's toJSON() gives it (the parts read here). */
export interface CommandDefinition {
  name: string;
  options?: Array<{ name: string; type: number; required?: boolean; options?: CommandDefinition['options'] }>;
}

export type SendRequest =
  | { kind: 'command'; name: string; options: CommandOption[]; as: Person; targets: string[]; shown: string }
  | { kind: 'vote'; member: Person; double: boolean; shown: string; site?: AdaptedSiteId }
  | { kind: 'review'; member: Person; rating: number; content: string; shown: string };

/** Bad input: the message says what to type instead. */
export class SendLineError extends Error {}

export const DEFAULT_REVIEW = 'Friendly people and a fair queue.';
const SNOWFLAKE = /^\d{17,20}$/;

/** Splits a typed line into words; double quotes keep spaces (`content:"a b"`). */
export function splitWords(line: string): string[] {
  return [...line.matchAll(/(?:[^\s"]+|"[^"]*")+/g)].map((m) => m[0].replace(/"/g, ''));
}

function pairs(words: string[]): Array<{ key: string; value: string } | { word: string }> {
  return words.map((word) => {
    const at = word.indexOf(':');
    return at > 0 ? { key: word.slice(0, at).toLowerCase(), value: word.slice(at + 1) } : { word };
  });
}

function personNamed(value: string, what: string): Person {
  const found = findPerson(value);
  if (found) return found;
  throw new SendLineError(
    `${what}: no member "${value}". Members: ${CAST.map((p) => p.name.toLowerCase()).join(', ')}.`,
  );
}

function optionValue(type: number, key: string, value: string): { value: string | number | boolean; target?: string } {
  switch (type) {
    case OptionType.User: {
      // Any snowflake is a member to Discord; a name must be one of the playground's members.
      const id = SNOWFLAKE.test(value) ? value : personNamed(value, key).id;
      return { value: id, target: id };
    }
    case OptionType.Boolean: {
      const truth = /^(true|yes)$/i.test(value) ? true : /^(false|no)$/i.test(value) ? false : undefined;
      if (truth === undefined) throw new SendLineError(`${key}: takes true or false, not "${value}".`);
      return { value: truth };
    }
    case OptionType.Integer:
    case OptionType.Number: {
      const n = Number(value);
      if (value === '' || !Number.isFinite(n) || (type === OptionType.Integer && !Number.isInteger(n)))
        throw new SendLineError(`${key}: takes a number, not "${value}".`);
      return { value: n };
    }
    case OptionType.String:
      return { value };
    default:
      throw new SendLineError(`${key}: the playground cannot send this kind of option (type ${type}).`);
  }
}

function readCommand(words: string[], commands: readonly CommandDefinition[]): SendRequest {
  const name = words[0]!.slice(1).toLowerCase();
  const command = commands.find((c) => c.name === name);
  if (!command)
    throw new SendLineError(`No command /${name}. Commands: ${commands.map((c) => `/${c.name}`).join(', ')}.`);
  let as = alice;
  let definitions = command.options ?? [];
  let subcommand: string | undefined;
  const given: CommandOption[] = [];
  const targets: string[] = [];
  const subcommands = definitions.filter((o) => o.type === OptionType.Subcommand);
  for (const part of pairs(words.slice(1))) {
    if ('word' in part) {
      const sub = subcommands.find((o) => o.name === part.word.toLowerCase());
      if (!sub || subcommand !== undefined)
        throw new SendLineError(
          subcommands.length > 0 && subcommand === undefined
            ? `/${name} ${part.word}: choose one of ${subcommands.map((o) => o.name).join(', ')}.`
            : `"${part.word}" is not an option: type options as name:value.`,
        );
      subcommand = sub.name;
      definitions = sub.options ?? [];
      continue;
    }
    if (part.key === 'as') {
      as = personNamed(part.value, 'as');
      continue;
    }
    const definition = definitions.find((o) => o.name === part.key && o.type !== OptionType.Subcommand);
    if (!definition) {
      const known = definitions.filter((o) => o.type !== OptionType.Subcommand).map((o) => `${o.name}:`);
      throw new SendLineError(
        `/${name}${subcommand ? ` ${subcommand}` : ''} has no option ${part.key}:` +
          (known.length > 0 ? `; it takes ${known.join(', ')}` : '; it takes none') +
          ' (and as: for who sends it).',
      );
    }
    const { value, target } = optionValue(definition.type, part.key, part.value);
    given.push({ name: definition.name, type: definition.type, value });
    if (target) targets.push(target);
  }
  if (subcommands.length > 0 && subcommand === undefined)
    throw new SendLineError(
      `/${name} needs one of ${subcommands.map((o) => o.name).join(', ')}, e.g. /${name} ${subcommands[0]!.name}.`,
    );
  const missing = definitions.filter((o) => o.required && !given.some((g) => g.name === o.name));
  if (missing.length > 0) throw new SendLineError(`/${name} needs ${missing.map((o) => `${o.name}:`).join(', ')}.`);
  const options = subcommand ? [{ name: subcommand, type: OptionType.Subcommand, options: given }] : given;
  return { kind: 'command', name, options, as, targets, shown: words.join(' ') };
}

function readWebhook(words: string[]): SendRequest {
  const event = words[1]?.toLowerCase();
  if (event !== 'vote' && event !== 'review')
    throw new SendLineError('webhook: say which event, vote or review, e.g. webhook vote member:bob.');
  const values = new Map<string, string>();
  const allowed = event === 'vote' ? ['member', 'double', 'site'] : ['member', 'rating', 'content'];
  for (const part of pairs(words.slice(2))) {
    if ('word' in part || !allowed.includes(part.key))
      throw new SendLineError(`webhook ${event} takes ${allowed.map((k) => `${k}:`).join(', ')}.`);
    values.set(part.key, part.value);
  }
  const who = values.get('member');
  if (who === undefined) throw new SendLineError(`webhook ${event} needs member:, e.g. webhook ${event} member:bob.`);
  const member = personNamed(who, 'member');
  const shown = words.join(' ');
  if (event === 'vote') {
    const double = values.has('double')
      ? optionValue(OptionType.Boolean, 'double', values.get('double')!).value
      : false;
    const site = values.get('site')?.toLowerCase();
    if (site === undefined || site === 'guilds') return { kind: 'vote', member, double: double === true, shown };
    if (!isAdaptedSiteId(site))
      throw new SendLineError(`site: takes one of ${SITE_IDS.join(', ')}, not "${values.get('site')}".`);
    // Top.gg says how much a vote weighs itself; the other lists have no double votes.
    if (double === true && site !== 'topgg') throw new SendLineError(`double: is for Guilds and Top.gg, not ${site}.`);
    return { kind: 'vote', member, double: double === true, shown, site };
  }
  const rating = Number(values.get('rating') ?? 5);
  if (!Number.isInteger(rating) || rating < 1 || rating > 5)
    throw new SendLineError(`rating: takes a whole number of stars from 1 to 5, not "${values.get('rating')}".`);
  return { kind: 'review', member, rating, content: values.get('content') || DEFAULT_REVIEW, shown };
}

/** Reads `/vote member:alice as:maya`, `/remind on`, `webhook vote member:bob double:true` or `webhook review member:dan rating:4`. */
export function readSendLine(words: string[], commands: readonly CommandDefinition[]): SendRequest {
  if (words.length === 0)
    throw new SendLineError('Nothing to send: try /vote member:alice or webhook vote member:bob.');
  if (words[0]!.startsWith('/')) return readCommand(words, commands);
  if (words[0]!.toLowerCase() === 'webhook') return readWebhook(words);
  throw new SendLineError(`"${words[0]}": start with a slash command (/vote) or the word webhook.`);
}
