import { describe, expect, it } from '@jest/globals';
import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import type { DoctorState } from '../../../src/doctor/check.js';
import { checkRole } from '../../../src/doctor/discord-roles.js';
import { roleProblems, type RoleInputs } from '../../../src/guild-rules/role-permissions.js';

const GUILD = '820627321651331072';
const BOT = '981489785241731072';
const BOT_ROLE = '820627321659719680';
const VOTER = '820627321668108288';

function inputs(extra: {
  botPermissions?: bigint;
  voterPosition?: number;
  ownerId?: string;
  managed?: boolean;
}): RoleInputs {
  return {
    guildId: GUILD,
    ownerId: extra.ownerId ?? '111111111111111111',
    memberId: BOT,
    memberRoles: [BOT_ROLE],
    roles: [
      { id: GUILD, name: '@everyone', position: 0, permissions: P.ViewChannel.toString() },
      { id: VOTER, name: 'Voter', position: extra.voterPosition ?? 1, permissions: '0', managed: extra.managed },
      {
        id: BOT_ROLE,
        name: 'Vote Review Bot',
        position: 2,
        permissions: (extra.botPermissions ?? P.ManageRoles).toString(),
      },
    ],
    roleId: VOTER,
  };
}

describe('roleProblems', () => {
  it('finds none when the bot has Manage Roles and the role sits below its own', () => {
    expect(roleProblems(inputs({}))).toEqual([]);
  });

  it('names a missing Manage Roles', () => {
    expect(roleProblems(inputs({ botPermissions: P.SendMessages }))).toEqual(['the bot lacks Manage Roles']);
  });

  it('names a role placed at or above the bot’s highest role', () => {
    expect(roleProblems(inputs({ voterPosition: 2 }))).toEqual(["@Voter is not below the bot's highest role"]);
    expect(roleProblems(inputs({ voterPosition: 5 }))).toEqual(["@Voter is not below the bot's highest role"]);
  });

  it('names a role managed by an integration and one that does not exist', () => {
    expect(roleProblems(inputs({ managed: true }))).toEqual([
      '@Voter is managed by an integration and cannot be given',
    ]);
    expect(roleProblems({ ...inputs({}), roleId: '999999999999999999' })).toEqual([
      'role 999999999999999999 does not exist in the server',
    ]);
  });

  it('names @everyone (the role whose id is the server id) alone, whatever the bot may do', () => {
    for (const extra of [{}, { botPermissions: P.Administrator }, { ownerId: BOT }])
      expect(roleProblems({ ...inputs(extra), roleId: GUILD })).toEqual([
        '@everyone is every member of the server and cannot be given or taken',
      ]);
  });

  it('names a managed role even when the bot owns the server, and no permission for a role it cannot give', () => {
    expect(roleProblems(inputs({ managed: true, ownerId: BOT }))).toEqual([
      '@Voter is managed by an integration and cannot be given',
    ]);
    expect(roleProblems(inputs({ managed: true, botPermissions: 0n, voterPosition: 5 }))).toEqual([
      '@Voter is managed by an integration and cannot be given',
    ]);
  });

  it('lets Administrator stand in for Manage Roles, and the owner manage any role', () => {
    expect(roleProblems(inputs({ botPermissions: P.Administrator }))).toEqual([]);
    expect(roleProblems(inputs({ voterPosition: 9, botPermissions: 0n, ownerId: BOT }))).toEqual([]);
  });
});

describe('the role check', () => {
  const state = (botPermissions: bigint): DoctorState => {
    const { roles } = inputs({ botPermissions });
    return {
      guild: { id: GUILD, name: 'Guild', ownerId: '111111111111111111', roles },
      bot: { id: BOT, name: 'Vote Review Bot' },
      botMember: { roles: [BOT_ROLE] },
    };
  };
  const role = { label: 'voter role', setting: 'VOTER_ROLE_ID', id: VOTER };

  it('passes naming the role, and fails naming the setting in the fix', () => {
    expect(checkRole(state(P.ManageRoles), role)).toEqual({
      status: 'pass',
      detail: 'the bot can give and take @Voter.',
    });
    expect(checkRole(state(0n), role)).toMatchObject({
      status: 'fail',
      detail: 'the bot lacks Manage Roles.',
      fix: expect.stringContaining('above the role in VOTER_ROLE_ID'),
    });
  });

  it('points the fix at another role, not at permissions, for @everyone, a managed or a deleted role', () => {
    const managed = state(P.ManageRoles);
    managed.guild!.roles = managed.guild!.roles.map((r) => (r.id === VOTER ? { ...r, managed: true } : r));
    for (const [checked, id] of [
      [state(P.ManageRoles), GUILD],
      [state(P.ManageRoles), '999999999999999999'],
      [managed, VOTER],
    ] as const)
      expect(checkRole(checked, { ...role, id })).toMatchObject({
        status: 'fail',
        fix: expect.stringMatching(/^Set VOTER_ROLE_ID to a role the bot can give/),
      });
  });

  it('passes when the role is not set and skips without the server', () => {
    expect(checkRole(state(0n), { ...role, id: undefined }).status).toBe('pass');
    expect(checkRole({}, role).status).toBe('skip');
  });
});
