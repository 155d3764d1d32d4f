import type { REST } from 'discord.js';
import { RESTJSONErrorCodes, Routes } from 'discord-api-types/v10';
import { DiscordAPIError } from '../work/discord-api-error.js';
import { classifyFailure, type Failure } from '../work/failure.js';

export type RoleChange = 'grant' | 'remove';

/**
 * What Discord made of one role change. `absent`: the member is not in the server (Unknown Member),
 * nothing to change. `refused`: Discord will say the same until a person changes something (see
 * src/work/failure.ts), with the error as it came, for the caller to log or rethrow.
 */
export type RoleChangeOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'absent' }
  | { readonly kind: 'refused'; readonly refusal: Extract<Failure, { kind: 'refused' }>; readonly err: unknown };

/**
 * The one way the roles workers change a member's roles. Requests go straight to Discord's REST API,
 * paced by discord.js's queue per Discord's buckets; ordering between changes is the caller's. A
 * transient failure (5xx, 429, network) is thrown, for the caller's retry.
 */
export interface RoleChanges {
  grant(userId: string, roleId: string, reason: string): Promise<RoleChangeOutcome>;
  remove(userId: string, roleId: string, reason: string): Promise<RoleChangeOutcome>;
}

const DONE: RoleChangeOutcome = { kind: 'done' };
const ABSENT: RoleChangeOutcome = { kind: 'absent' };

export function roleChanges(rest: REST, guildId: string): RoleChanges {
  return new RestRoleChanges(rest, guildId);
}

/** A class, not two arrow functions over a third: the voter role and milestone roles of every server hold one. */
class RestRoleChanges implements RoleChanges {
  constructor(
    private readonly rest: REST,
    private readonly guildId: string,
  ) {}

  grant(userId: string, roleId: string, reason: string): Promise<RoleChangeOutcome> {
    return this.#send('grant', userId, roleId, reason);
  }

  remove(userId: string, roleId: string, reason: string): Promise<RoleChangeOutcome> {
    return this.#send('remove', userId, roleId, reason);
  }

  async #send(change: RoleChange, userId: string, roleId: string, reason: string): Promise<RoleChangeOutcome> {
    const route = Routes.guildMemberRole(this.guildId, userId, roleId);
    try {
      if (change === 'grant') await this.rest.put(route, { reason });
      else await this.rest.delete(route, { reason });
    } catch (err) {
      if (err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownMember) return ABSENT;
      const failure = classifyFailure(err);
      if (failure.kind === 'transient') throw err;
      return { kind: 'refused', refusal: failure, err };
    }
    return DONE;
  }
}
