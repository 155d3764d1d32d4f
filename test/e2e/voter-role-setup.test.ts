import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { textOf } from '../../tools/conversation.js';
import {
  DEFAULTS,
  member,
  MODERATOR_PERMISSIONS,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type CommandOption,
  type RoleChange,
} from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';

// The voter role as /setup role sets it (no VOTER_ROLE_ID): roles it must refuse, and one deleted later.
const GUILD = DEFAULTS.guildId;
const AUDIT_CHANNEL = textChannelIdFor(GUILD);
const admin = member({ permissions: MODERATOR_PERMISSIONS });

afterAll(removeStoreFiles);

const voterOption = (roleId: string): CommandOption => ({ name: 'voter', type: OptionType.Role, value: roleId });

describe('the voter role set with /setup role', () => {
  let world: World;
  let url: string;
  beforeAll(async () => {
    let env: Record<string, string>;
    ({ url, ...env } = await receiverEnv({}));
    world = await startWorld({ env });
  });
  afterAll(async () => {
    await world?.close();
  });

  async function setup(sub: string, options: CommandOption[] = []): Promise<string> {
    const handle = world.discord.sendInteraction(
      slashCommand({ name: 'setup', member: admin, options: [{ name: sub, type: OptionType.Subcommand, options }] }),
    );
    return textOf(await handle.waitForMessage(10_000));
  }
  /** The voter role's check in /setup status, with its fix when it fails (the line after). */
  const voterRoleLine = async () => {
    const lines = (await setup('status')).split('\n');
    const at = lines.findIndex((line) => line.includes('**Voter role**'));
    return lines.slice(at, lines[at + 1]?.trim().startsWith('↳') ? at + 2 : at + 1).join('\n');
  };
  const changesOf = (userId: string): RoleChange[] => world.discord.roleChanges.filter((c) => c.userId === userId);
  const roleRequests = () => world.discord.requests.filter((r) => /\/members\/\d+\/roles\/\d+$/.test(r.path));

  it("refuses @everyone and a bot's or integration's role, saying to choose another, and changes nothing", async () => {
    const before = await voterRoleLine();
    const integration = world.discord.addRole('Twitch Subscriber', { managed: true });
    const everyone = await setup('role', [voterOption(GUILD)]);
    expect(everyone).toContain('@everyone is every member of the server and cannot be given or taken');
    for (const refused of [everyone, await setup('role', [voterOption(world.discord.botRoleId)])]) {
      expect(refused).toContain('Choose a role the bot can give');
      expect(refused).toContain('Nothing was changed');
      expect(refused).not.toContain('Manage Roles');
    }
    expect(await setup('role', [voterOption(integration)])).toContain(
      `<@&${integration}> is managed by an integration and cannot be given`,
    );
    expect(await voterRoleLine()).toEqual(before);

    const voter = member();
    world.discord.addMembers([voter]);
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter.user.id))).toBe(200);
    await world.bot.waitForLog((l) => l.msg === 'vote accepted' && l.userId === voter.user.id, 10_000, 'the vote');
    // No event: with no voter role set nothing acts on the vote, so there is nothing to wait for but time.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(roleRequests().filter((r) => r.path.endsWith(`/roles/${GUILD}`))).toEqual([]);
    expect(changesOf(voter.user.id)).toEqual([]);
  });

  it('deleted: parks role changes with one log line and one audit message, points the fix at /setup role, and resumes with a new role', async () => {
    const doomed = world.discord.addRole('Voters');
    expect(await setup('role', [voterOption(doomed)])).toMatch(/Voter role set/);
    world.discord.deleteRole(doomed);
    const auditBefore = world.discord.channelMessages(AUDIT_CHANNEL).length;
    const logsBefore = world.bot.logs.length;

    const voters = [member(), member(), member()];
    world.discord.addMembers(voters);
    const parked = () =>
      world.bot.logs.slice(logsBefore).filter((l) => String(l.msg).startsWith('the voter role no longer exists'));
    for (const [i, voter] of voters.entries()) {
      world.sandbox.setVote(voter.user.id, 60_000);
      expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter.user.id))).toBe(200);
      await world.bot.waitForLog((l) => l.msg === 'vote accepted' && l.userId === voter.user.id, 10_000, 'the vote');
      // One after another: the first 404 parks the role before the next vote could send a change.
      if (i === 0) await world.discord.waitUntil(() => parked().length === 1, 10_000, 'the parking log line');
    }
    expect(parked()[0]).toMatchObject({ level: 50, roleId: doomed, guildId: GUILD });
    expect(String(parked()[0]!.msg)).toContain('/setup role voter:');
    const audit = world.discord.channelMessages(AUDIT_CHANNEL).slice(auditBefore);
    expect(audit.map(textOf)).toEqual([expect.stringContaining(`<@&${doomed}> no longer exists`)]);
    expect(textOf(audit[0]!)).toContain('/setup role voter:');

    const line = await voterRoleLine();
    expect(line).toContain('the role no longer exists');
    expect(line).toContain('`/setup role voter:`');
    expect(line).not.toContain('Manage Roles');

    const fresh = world.discord.addRole('Voters again');
    expect(await setup('role', [voterOption(fresh)])).toMatch(/Voter role set/);
    const next = member();
    world.discord.addMembers([next]);
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, next.user.id))).toBe(200);
    await world.discord.waitUntil(() => changesOf(next.user.id).length === 1, 10_000, 'the new role given');
    expect(changesOf(next.user.id)[0]).toMatchObject({ change: 'add', roleId: fresh });
    // The voters who voted while it was parked get the new role too, while their votes run.
    await world.discord.waitUntil(
      () => voters.every((voter) => (world.discord.memberRoles(voter.user.id) ?? []).includes(fresh)),
      10_000,
      'the new role given to the earlier voters',
    );
    // The parked role's worker is gone since the new role replaced it: all it did is done. It asked
    // Discord for the deleted role once, and said so in one line.
    expect(roleRequests().filter((r) => r.path.endsWith(`/roles/${doomed}`))).toHaveLength(1);
    expect(parked()).toHaveLength(1);
    const warnings = world.bot.logs
      .slice(logsBefore)
      .filter((l) => Number(l.level) >= 40 && /voter role|running vote/.test(String(l.msg)));
    expect(warnings).toEqual([parked()[0]]);
  });
});
