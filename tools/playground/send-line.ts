import { isAdaptedSiteId, SITE_IDS, type AdaptedSiteId } from '../../src/lists/index.js';
import { OptionType, type CommandOption } from '../discord-standin/index.js';
import type { RolePayload } from '../discord-standin/types.js';
import { alice, CAST, findPerson, type Person } from './cast.js';
import { findServer, playgroundServers, serverList, type PlaygroundServer } from './servers.js';

/* What `npm run playground -- send …` (or the curl line) asks for, read from its words: a slash
 * command as a member would type it in Discord, or a delivery as Guilds would send it. Pure: the
 * commands' definitions come in from the bot's own builders, so a new option needs no change here. */

/** A command's definition as its builder's toJSON() gives it (the parts read here). */
export interface CommandDefinition {
  name: string;
  /** Set on commands only members with these permissions see (/setup: Manage Server). */
  default_member_permissions?: string | null;
  options?: CommandDefinitionOption[];
}

/** An option, subcommand or subcommand group of a command's definition; `choices`: the only values it takes. */
export interface CommandDefinitionOption {
  name: string;
  type: number;
  required?: boolean;
  choices?: Array<{ name: string; value: string | number }>;
  options?: CommandDefinitionOption[];
}

export type SendRequest =
  | {
      kind: 'command';
      name: string;
      options: CommandOption[];
      as: Person;
      targets: string[];
      /** The roles that role options name, as the server has them. */
      roles: RolePayload[];
      /** What to type into the form the command answers with (`/setup credentials api_key:… app_id:…`). */
      fields: Record<string, string>;
      server: PlaygroundServer;
      shown: string;
      /** Sent to the Interactions Endpoint on this port (`--http`) instead of over the gateway. */
      http?: number;
    }
  | { kind: 'vote'; member: Person; double: boolean; shown: string; site?: AdaptedSiteId; server: PlaygroundServer }
  | { kind: 'review'; member: Person; rating: number; content: string; shown: string; server: PlaygroundServer }
  /** `api vote member:bob` or `api votes`: a GET to the vote API on the bot's receiver, with the server's key. */
  | { kind: 'api'; what: 'vote'; member: Person; shown: string; server: PlaygroundServer }
  | { kind: 'api'; what: 'votes'; shown: string; server: PlaygroundServer }
  | {
      kind: 'press';
      /** The button's label as typed: the first on the server's last answer whose label starts with it. */
      label: string;
      as: Person | undefined;
      /** What to type into the form the button opens. */
      fields: Record<string, string>;
      server: PlaygroundServer;
      shown: string;
      http?: number;
    };

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

/** `#general`, `general` or an id: one of the server's channels. */
function channelNamed(server: PlaygroundServer, key: string, value: string): string {
  const wanted = value.replace(/^#/, '').toLowerCase();
  if (wanted === server.channel.name || value === server.channel.id) return server.channel.id;
  throw new SendLineError(`${key}: server ${server.n} has no channel "${value}"; it has #${server.channel.name}.`);
}

/** `@Voter`, `voter` or an id: one of the server's roles. */
function roleNamed(server: PlaygroundServer, key: string, value: string): RolePayload {
  const wanted = value.replace(/^@/, '').toLowerCase();
  const found = server.roles.find((role) => role.id === value || role.name.replace(/^@/, '').toLowerCase() === wanted);
  if (found) return found;
  const names = server.roles.map((role) => (role.name.startsWith('@') ? role.name : `@${role.name}`));
  throw new SendLineError(`${key}: server ${server.n} has no role "${value}"; it has ${names.join(', ')}.`);
}

interface OptionRead {
  value: string | number | boolean;
  target?: string;
  role?: RolePayload;
}

function optionValue(type: number, key: string, value: string, server?: PlaygroundServer): OptionRead {
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
    case OptionType.Channel:
      if (server) return { value: channelNamed(server, key, value) };
      break;
    case OptionType.Role:
      if (server) {
        const role = roleNamed(server, key, value);
        return { value: role.id, role };
      }
      break;
  }
  throw new SendLineError(`${key}: the playground cannot send this kind of option (type ${type}).`);
}

/** `server:2` (what `--server 2` adds) picked out of the words, and the words without it. */
function pickServer(words: string[], servers: readonly PlaygroundServer[]): [PlaygroundServer, string[]] {
  const written = words.filter((word) => /^server:/i.test(word)).map((word) => word.slice('server:'.length));
  const rest = words.filter((word) => !/^server:/i.test(word));
  if (written.length > 1) throw new SendLineError('server: say it once (or --server once).');
  if (written.length === 0) return [servers[0]!, rest];
  const server = findServer(servers, written[0]!);
  if (!server)
    throw new SendLineError(`server: no server "${written[0]}". Servers: ${serverList(servers)} (a number or an id).`);
  return [server, rest];
}

/** Who types a command unless as: says: Alice, or Maya (Manage Server) for a command only she would see. */
function defaultSender(command: CommandDefinition): Person {
  const needs = command.default_member_permissions ? BigInt(command.default_member_permissions) : 0n;
  if (needs === 0n) return alice;
  return CAST.find((p) => (BigInt(p.member.permissions) & needs) === needs) ?? alice;
}

function readCommand(words: string[], commands: readonly CommandDefinition[], server: PlaygroundServer): SendRequest {
  const name = words[0]!.slice(1).toLowerCase();
  const command = commands.find((c) => c.name === name);
  if (!command)
    throw new SendLineError(`No command /${name}. Commands: ${commands.map((c) => `/${c.name}`).join(', ')}.`);
  let as = defaultSender(command);
  let definitions = command.options ?? [];
  let subcommand: string | undefined;
  const given: CommandOption[] = [];
  const targets: string[] = [];
  const roles: RolePayload[] = [];
  const fields = new Map<string, string>();
  const groups = definitions.filter((o) => o.type === OptionType.SubcommandGroup);
  let subcommands = definitions.filter((o) => o.type === OptionType.Subcommand);
  let group: string | undefined;
  // What the next bare word may be: a group or a subcommand of the command, or a subcommand of the group.
  const choices = () => (group === undefined ? [...groups, ...subcommands] : subcommands).map((o) => o.name);
  const typed = () => [name, group, subcommand].filter(Boolean).join(' ');
  for (const part of pairs(words.slice(1))) {
    if ('word' in part) {
      const word = part.word.toLowerCase();
      const inGroup = group === undefined && subcommand === undefined && groups.find((o) => o.name === word);
      if (inGroup) {
        group = inGroup.name;
        subcommands = (inGroup.options ?? []).filter((o) => o.type === OptionType.Subcommand);
        definitions = [];
        continue;
      }
      const sub = subcommands.find((o) => o.name === word);
      if (!sub || subcommand !== undefined)
        throw new SendLineError(
          choices().length > 0 && subcommand === undefined
            ? `/${typed()} ${part.word}: choose one of ${choices().join(', ')}.`
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
    const isValue = (o: CommandDefinitionOption) =>
      o.type !== OptionType.Subcommand && o.type !== OptionType.SubcommandGroup;
    const definition = definitions.find((o) => o.name === part.key && isValue(o));
    const known = definitions.filter(isValue).map((o) => `${o.name}:`);
    // A command that takes no options may answer with a form: what else is typed fills it.
    if (!definition && known.length === 0 && (subcommand !== undefined || choices().length === 0)) {
      fields.set(part.key, part.value);
      continue;
    }
    if (!definition)
      throw new SendLineError(
        `/${typed()} has no option ${part.key}:` +
          (known.length > 0 ? `; it takes ${known.join(', ')}` : '; it takes none') +
          ' (and as: for who sends it).',
      );
    if (definition.choices && !definition.choices.some((choice) => String(choice.value) === part.value))
      throw new SendLineError(
        `${part.key}: one of ${definition.choices.map((choice) => choice.value).join(', ')}, not "${part.value}".`,
      );
    const { value, target, role } = optionValue(definition.type, part.key, part.value, server);
    given.push({ name: definition.name, type: definition.type, value });
    if (target) targets.push(target);
    if (role) roles.push(role);
  }
  if (choices().length > 0 && subcommand === undefined)
    throw new SendLineError(`/${typed()} needs one of ${choices().join(', ')}, e.g. /${typed()} ${choices()[0]}.`);
  const missing = definitions.filter((o) => o.required && !given.some((g) => g.name === o.name));
  if (missing.length > 0) throw new SendLineError(`/${typed()} needs ${missing.map((o) => `${o.name}:`).join(', ')}.`);
  const leaf = subcommand ? [{ name: subcommand, type: OptionType.Subcommand, options: given }] : given;
  const options = group ? [{ name: group, type: OptionType.SubcommandGroup, options: leaf }] : leaf;
  // What a form is filled with is as secret as the form makes it (an API key): never echoed.
  const key = (word: string) => word.split(':')[0]!;
  const shown = words.map((word) => (fields.has(key(word).toLowerCase()) ? `${key(word)}:…` : word)).join(' ');
  return { kind: 'command', name, options, as, targets, roles, fields: Object.fromEntries(fields), server, shown };
}

function readWebhook(words: string[], server: PlaygroundServer): SendRequest {
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
    if (site === undefined || site === 'guilds')
      return { kind: 'vote', member, double: double === true, shown, server };
    if (!isAdaptedSiteId(site))
      throw new SendLineError(`site: takes one of ${SITE_IDS.join(', ')}, not "${values.get('site')}".`);
    // Top.gg says how much a vote weighs itself; the other lists have no double votes.
    if (double === true && site !== 'topgg') throw new SendLineError(`double: is for Guilds and Top.gg, not ${site}.`);
    return { kind: 'vote', member, double: double === true, shown, site, server };
  }
  const rating = Number(values.get('rating') ?? 5);
  if (!Number.isInteger(rating) || rating < 1 || rating > 5)
    throw new SendLineError(`rating: takes a whole number of stars from 1 to 5, not "${values.get('rating')}".`);
  return { kind: 'review', member, rating, content: values.get('content') || DEFAULT_REVIEW, shown, server };
}

/** `api vote member:bob` (is Bob voting?) or `api votes` (the server's ledger, a page). */
function readApi(words: string[], server: PlaygroundServer): SendRequest {
  const what = words[1]?.toLowerCase();
  const shown = words.join(' ');
  const [only, ...more] = pairs(words.slice(2));
  if (what === 'votes' && only === undefined) return { kind: 'api', what, shown, server };
  const member = only && more.length === 0 && 'key' in only && only.key === 'member' ? only.value : undefined;
  if (what !== 'vote' || member === undefined)
    throw new SendLineError('api: ask api vote member:<who> (is the member voting?) or api votes (the ledger).');
  return { kind: 'api', what, member: personNamed(member, 'member'), shown, server };
}

/** `press "Paste the secret" secret:… as:maya`: a button on the bot's last answer in the server. */
function readPress(words: string[], server: PlaygroundServer): SendRequest {
  const label = words[1];
  if (label === undefined || label.includes(':'))
    throw new SendLineError('press: name the button, e.g. press "Paste the secret" secret:whs_….');
  let as: Person | undefined;
  const fields = new Map<string, string>();
  for (const part of pairs(words.slice(2))) {
    if ('word' in part)
      throw new SendLineError(`"${part.word}": a label of several words goes in quotes ("Paste the secret").`);
    if (part.key === 'as') as = personNamed(part.value, 'as');
    else fields.set(part.key, part.value);
  }
  const quoted = /\s/.test(label) ? `"${label}"` : label;
  const key = (word: string) => word.split(':')[0]!;
  const shown = [
    words[0]!,
    quoted,
    ...words.slice(2).map((w) => (fields.has(key(w).toLowerCase()) ? `${key(w)}:…` : w)),
  ];
  return { kind: 'press', label, as, fields: Object.fromEntries(fields), server, shown: shown.join(' ') };
}

const ONE_SERVER = playgroundServers(1);

/**
 * Reads `/vote member:alice as:maya`, `/remind on`, `/setup channel kind:votes target:#general`,
 * `/setup credentials api_key:… app_id:…`, `webhook vote member:bob double:true` or `webhook review
 * member:dan rating:4`, or `press "Paste the secret" secret:…` (a button on the bot's last answer), each
 * with `server:2` to act in another of the `servers` (default the first).
 */
export function readSendLine(
  allWords: string[],
  commands: readonly CommandDefinition[],
  servers: readonly PlaygroundServer[] = ONE_SERVER,
): SendRequest {
  const [server, serverless] = pickServer(allWords, servers);
  const [http, words] = pickHttp(serverless);
  if (words.length === 0)
    throw new SendLineError('Nothing to send: try /vote member:alice or webhook vote member:bob.');
  const first = words[0]!.toLowerCase();
  if (first === 'api') {
    if (http !== undefined) throw new SendLineError('--http is for commands and buttons: api asks the vote API.');
    return readApi(words, server);
  }
  if (first === 'webhook') {
    if (http !== undefined)
      throw new SendLineError('--http is for commands and buttons: a delivery goes to the webhook receiver.');
    return readWebhook(words, server);
  }
  const over = http === undefined ? {} : { http };
  if (words[0]!.startsWith('/')) return { ...readCommand(words, commands, server), ...over };
  if (first === 'press') return { ...readPress(words, server), ...over };
  throw new SendLineError(
    `"${words[0]}": start with a slash command (/vote), the word webhook, the word api or the word press.`,
  );
}

/** `http:8792` (what `--http` adds): the Interactions Endpoint's port to send through, and the words without it. */
function pickHttp(words: string[]): [number | undefined, string[]] {
  const written = words.filter((word) => /^http:/i.test(word)).map((word) => word.slice('http:'.length));
  const rest = words.filter((word) => !/^http:/i.test(word));
  if (written.length === 0) return [undefined, rest];
  const port = Number(written[0]);
  if (written.length > 1 || !/^\d+$/.test(written[0]!) || port < 1 || port > 65_535)
    throw new SendLineError("http: give the Interactions Endpoint's port once (--interactions-port N).");
  return [port, rest];
}
