import { beforeAll, describe, expect, it } from '@jest/globals';
import { loadCommands } from '../../../src/bot/load-commands.js';
import { OptionType } from '../../../tools/discord-standin/index.js';
import { alice, bob, maya } from '../../../tools/playground/cast.js';
import { playgroundServers } from '../../../tools/playground/servers.js';
import {
  DEFAULT_REVIEW,
  readSendLine,
  SendLineError,
  splitWords,
  type CommandDefinition,
} from '../../../tools/playground/send-line.js';

// The bot's own command definitions, as the playground reads them: a renamed option shows here.
let commands: CommandDefinition[];
beforeAll(async () => {
  commands = [...(await loadCommands(new URL('../../../commands/', import.meta.url))).values()].map((c) =>
    c.data.toJSON(),
  );
});

const servers = playgroundServers(3);
const read = (line: string) => readSendLine(splitWords(line), commands, servers);
const refusal = (line: string) => {
  try {
    read(line);
  } catch (error) {
    if (error instanceof SendLineError) return error.message;
    throw error;
  }
  throw new Error(`"${line}" was not refused`);
};

describe('what a playground send line asks for', () => {
  it('reads a command with a member by name, typed by Alice unless as: names someone', () => {
    expect(read('/vote member:Bob')).toMatchObject({
      kind: 'command',
      name: 'vote',
      as: alice,
      options: [{ name: 'member', type: OptionType.User, value: bob.id }],
      targets: [bob.id],
    });
    expect(read('/review member:carol public:true as:maya')).toMatchObject({
      as: maya,
      options: [{ name: 'member' }, { name: 'public', type: OptionType.Boolean, value: true }],
    });
  });

  it('takes any snowflake as a member, as Discord would', () => {
    expect(read('/vote member:123456789012345678')).toMatchObject({ targets: ['123456789012345678'] });
  });

  it('sends a subcommand as Discord does: the one option, carrying its own', () => {
    expect(read('/remind on')).toMatchObject({
      name: 'remind',
      options: [{ name: 'on', type: OptionType.Subcommand, options: [] }],
    });
  });

  it('sends a subcommand of a group as Discord does: the group, carrying the subcommand, carrying its options', () => {
    expect(read('/setup listing add site:topgg')).toMatchObject({
      name: 'setup',
      as: maya,
      options: [
        {
          name: 'listing',
          type: OptionType.SubcommandGroup,
          options: [{ name: 'add', type: OptionType.Subcommand, options: [{ name: 'site', value: 'topgg' }] }],
        },
      ],
    });
    expect(refusal('/setup nothing')).toMatch(/^\/setup nothing: choose one of .*\blisting\b/);
    expect(refusal('/setup listing')).toMatch(/^\/setup listing needs one of add, /);
    const siteOption = commands
      .find((c) => c.name === 'setup')
      ?.options?.find((o) => o.name === 'listing')
      ?.options?.find((o) => o.name === 'add')
      ?.options?.find((o) => o.name === 'site');
    expect(siteOption?.choices?.map((choice) => choice.value)).toContain('topgg');
    expect(refusal('/setup listing add site:myspace')).toBe(
      `site: one of ${siteOption!.choices!.map((choice) => choice.value).join(', ')}, not "myspace".`,
    );
  });

  it('reads deliveries, with a review defaulting to 5 stars and a friendly text', () => {
    expect(read('webhook vote member:bob double:yes')).toMatchObject({ kind: 'vote', member: bob, double: true });
    expect(read('webhook review member:maya rating:2 content:"Slow but fair"')).toMatchObject({
      kind: 'review',
      member: maya,
      rating: 2,
      content: 'Slow but fair',
    });
    expect(read('webhook review member:maya')).toMatchObject({ rating: 5, content: DEFAULT_REVIEW });
  });

  it('reads a question to the vote API: is a member voting, or the ledger, in a server', () => {
    expect(read('api vote member:bob')).toMatchObject({ kind: 'api', what: 'vote', member: bob, server: servers[0] });
    expect(read('api votes server:2')).toMatchObject({ kind: 'api', what: 'votes', server: servers[1] });
    for (const line of ['api', 'api vote', 'api vote bob', 'api votes member:bob', 'api vote member:bob double:true'])
      expect(refusal(line)).toContain('api vote member:<who>');
    expect(refusal('api vote member:zed')).toContain('no member "zed"');
  });

  it('reads a form to fill after a command that takes no options, typed by Maya for /setup', () => {
    expect(read('/setup credentials api_key:k-1 app_id:a-1')).toMatchObject({
      as: maya,
      options: [{ name: 'credentials', type: OptionType.Subcommand, options: [] }],
      fields: { api_key: 'k-1', app_id: 'a-1' },
      server: servers[0],
    });
    // A command with options still refuses one it does not take: there is no form to put it in.
    expect(refusal('/setup channel kind:votes api_key:k')).toContain('/setup channel has no option api_key:');
  });

  it("reads a button to press on the bot's last answer, with the form's fields, never echoing them", () => {
    expect(read('press "Paste the secret" secret:whs_abcdefghijklmnop server:2')).toEqual({
      kind: 'press',
      label: 'Paste the secret',
      as: undefined,
      fields: { secret: 'whs_abcdefghijklmnop' },
      server: servers[1],
      shown: 'press "Paste the secret" secret:…',
    });
    expect(read('press next as:bob')).toMatchObject({ label: 'next', as: bob, fields: {} });
    expect(refusal('press')).toContain('press: name the button');
    expect(refusal('press Paste the secret')).toContain('a label of several words goes in quotes');
  });

  it('names channels and roles as a member picks them, in the server server: names (by number or id)', () => {
    const two = servers[1]!;
    expect(read('/setup channel kind:votes target:#general server:2')).toMatchObject({
      server: two,
      options: [{ options: [{ name: 'kind' }, { name: 'target', type: OptionType.Channel, value: two.channel.id }] }],
    });
    const voter = two.roles.find((role) => role.name === 'Voter')!;
    expect(read(`/setup role voter:@voter server:${two.id}`)).toMatchObject({
      roles: [voter],
      options: [{ options: [{ name: 'voter', type: OptionType.Role, value: voter.id }] }],
    });
    expect(read('webhook vote member:bob server:3')).toMatchObject({ kind: 'vote', server: servers[2] });
  });

  it('refuses, saying what to type instead', () => {
    expect(refusal('/nope')).toContain('No command /nope. Commands: /leaderboard');
    expect(refusal('/vote member:zed')).toBe('member: no member "zed". Members: alice, bob, carol, maya, dan.');
    expect(refusal('/vote colour:red')).toBe(
      '/vote has no option colour:; it takes member:, public: (and as: for who sends it).',
    );
    expect(refusal('/vote public:maybe')).toBe('public: takes true or false, not "maybe".');
    expect(refusal('/remind')).toContain('/remind needs one of on, off, status');
    expect(refusal('/remind sometimes')).toBe('/remind sometimes: choose one of on, off, status.');
    expect(refusal('/remind on off')).toContain('"off" is not an option');
    expect(refusal('webhook reply member:bob')).toContain('vote or review');
    expect(refusal('webhook vote')).toContain('needs member:');
    expect(refusal('webhook review member:bob rating:6')).toContain('from 1 to 5');
    expect(refusal('vote member:bob')).toContain('start with a slash command');
    expect(refusal('')).toContain('Nothing to send');
    expect(refusal('/setup status server:4')).toContain('server: no server "4". Servers: 1 (');
    expect(refusal('/setup status server:1 server:2')).toContain('say it once');
    expect(refusal('/setup channel kind:votes target:#votes')).toBe(
      'target: server 1 has no channel "#votes"; it has #general.',
    );
    expect(refusal('/setup role voter:@Voters')).toContain('voter: server 1 has no role "@Voters"; it has @everyone');
  });
});
