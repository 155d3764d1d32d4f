import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REST } from 'discord.js';
import { roleChanges, type RoleChanges } from '../../src/roles/role-changes.js';
import { closedPort } from '../../tools/closed-port.js';
import { member, startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

let discord: DiscordStandIn;
let roles: RoleChanges;

beforeAll(async () => {
  discord = await startDiscordStandIn();
  roles = roleChanges(new REST({ api: discord.apiUrl, retries: 0 }).setToken(discord.token), discord.guildId);
});
afterAll(async () => {
  await discord?.close();
});

describe('the one role-change port', () => {
  it('gives and takes a role, with the reason in the audit log', async () => {
    const voter = member();
    discord.addMembers([voter]);
    const role = discord.voterRoleId;

    expect(await roles.grant(voter.user.id, role, 'voted')).toEqual({ kind: 'done' });
    expect(discord.memberRoles(voter.user.id)).toEqual([role]);
    expect(await roles.remove(voter.user.id, role, 'vote ran out')).toEqual({ kind: 'done' });
    expect(discord.memberRoles(voter.user.id)).toEqual([]);
    expect(discord.roleChanges.filter((c) => c.userId === voter.user.id).map((c) => [c.change, c.reason])).toEqual([
      ['add', 'voted'],
      ['remove', 'vote ran out'],
    ]);
  });

  it('finds a member who is not in the server absent, and changes nothing', async () => {
    const stranger = member();
    const before = discord.roleChanges.length;
    expect(await roles.grant(stranger.user.id, discord.voterRoleId, 'voted')).toEqual({ kind: 'absent' });
    expect(discord.roleChanges).toHaveLength(before);
  });

  it('says a 403 is refused for access, with the error Discord gave', async () => {
    const voter = member();
    discord.addMembers([voter]);
    discord.refuseRoleChanges(true);
    try {
      const outcome = await roles.grant(voter.user.id, discord.voterRoleId, 'voted');
      expect(outcome).toMatchObject({ kind: 'refused', refusal: { status: 403, code: 50013, reason: 'access' } });
      expect(outcome.kind === 'refused' && outcome.err).toMatchObject({ status: 403 });
    } finally {
      discord.refuseRoleChanges(false);
    }
    expect(discord.memberRoles(voter.user.id)).toEqual([]);
  });

  it('says a deleted role is refused as unknown', async () => {
    const voter = member();
    discord.addMembers([voter]);
    const role = discord.addRole('Gone soon');
    discord.deleteRole(role);
    expect(await roles.remove(voter.user.id, role, 'month ended')).toMatchObject({
      kind: 'refused',
      refusal: { status: 404, code: 10011, reason: 'unknown' },
    });
  });

  it('throws a failure that is not Discord refusing, for the caller to try again', async () => {
    const port = await closedPort();
    const unreachable = roleChanges(
      new REST({ api: `http://127.0.0.1:${port}/api`, retries: 0 }).setToken(discord.token),
      discord.guildId,
    );
    await expect(unreachable.grant(member().user.id, discord.voterRoleId, 'voted')).rejects.toThrow();
  });
});
