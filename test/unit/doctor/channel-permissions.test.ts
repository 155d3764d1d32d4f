import { describe, expect, it } from '@jest/globals';
import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import {
  channelPermissions,
  missingPermissions,
  type Overwrite,
  type PermissionInputs,
} from '../../../src/guild-rules/channel-permissions.js';

const GUILD = '820627321651331072';
const BOT = '981489785241731072';
const BOT_ROLE = '820627321659719680';
const OTHER_ROLE = '820627321668108288';
const POSTS = ['ViewChannel', 'SendMessages', 'EmbedLinks'] as const;

const everyone = P.ViewChannel | P.SendMessages | P.EmbedLinks;
const overwrite = (id: string, type: 0 | 1, allow: bigint, deny: bigint): Overwrite => ({
  id,
  type,
  allow: allow.toString(),
  deny: deny.toString(),
});

function inputs(overwrites: Overwrite[], extra: Partial<PermissionInputs> = {}): PermissionInputs {
  return {
    guildId: GUILD,
    ownerId: '111111111111111111',
    memberId: BOT,
    memberRoles: [BOT_ROLE],
    roles: [
      { id: GUILD, permissions: everyone.toString() },
      { id: BOT_ROLE, permissions: '0' },
      { id: OTHER_ROLE, permissions: P.ManageRoles.toString() },
    ],
    overwrites,
    ...extra,
  };
}

const missing = (input: PermissionInputs) => missingPermissions(channelPermissions(input), POSTS);

describe('channel permissions as Discord computes them', () => {
  it('grants what @everyone has when the channel has no overwrites', () => {
    expect(missing(inputs([]))).toEqual([]);
  });

  it('takes Send Messages away with a deny on the bot role', () => {
    expect(missing(inputs([overwrite(BOT_ROLE, 0, 0n, P.SendMessages)]))).toEqual(['SendMessages']);
  });

  it('lets a role allow win over the @everyone deny', () => {
    const result = missing(
      inputs([overwrite(GUILD, 0, 0n, P.SendMessages), overwrite(BOT_ROLE, 0, P.SendMessages, 0n)]),
    );
    expect(result).toEqual([]);
  });

  it('lets an allow on one of the bot’s roles win over a deny on another', () => {
    const result = missing(
      inputs([overwrite(BOT_ROLE, 0, 0n, P.EmbedLinks), overwrite(OTHER_ROLE, 0, P.EmbedLinks, 0n)], {
        memberRoles: [BOT_ROLE, OTHER_ROLE],
      }),
    );
    expect(result).toEqual([]);
  });

  it('lets the member overwrite win over role overwrites', () => {
    const result = missing(inputs([overwrite(BOT_ROLE, 0, P.SendMessages, 0n), overwrite(BOT, 1, 0n, P.SendMessages)]));
    expect(result).toEqual(['SendMessages']);
  });

  it('ignores overwrites for roles the bot does not hold', () => {
    expect(missing(inputs([overwrite(OTHER_ROLE, 0, 0n, P.SendMessages)]))).toEqual([]);
  });

  it('counts nothing as usable without View Channel', () => {
    expect(missing(inputs([overwrite(GUILD, 0, 0n, P.ViewChannel)]))).toEqual([...POSTS]);
  });

  it('gives Administrator and the owner everything, overwrites or not', () => {
    const denyAll = [overwrite(GUILD, 0, 0n, everyone), overwrite(BOT, 1, 0n, everyone)];
    const admin = inputs(denyAll, {
      roles: [
        { id: GUILD, permissions: '0' },
        { id: BOT_ROLE, permissions: P.Administrator.toString() },
      ],
    });
    expect(missing(admin)).toEqual([]);
    expect(missing(inputs(denyAll, { ownerId: BOT }))).toEqual([]);
  });
});
