import { randomBytes } from 'node:crypto';
import { DEFAULTS, userPayload } from './fixtures.js';
import type { UserPayload } from './types.js';

/** Every permission bit: what an owner's entry in GET /users/@me/guilds carries. */
const ALL_PERMISSIONS = (1n << 53n) - 1n;

/** One server in a member's GET /users/@me/guilds, as Discord lists it. */
export interface OAuthGuild {
  id: string;
  name?: string;
  owner?: boolean;
  /** The member's permissions there (bits); Discord sends them as a string. */
  permissions?: bigint;
}

/** Who signs in on the consent page: the member a test chose with oauthAs. */
export interface OAuthIdentity {
  userId: string;
  username?: string;
  /** The member's Discord language (GET /users/@me `locale`); default en-US. */
  locale?: string;
  guilds?: readonly OAuthGuild[];
}

interface Grant {
  identity: Required<OAuthIdentity>;
  redirectUri: string;
  clientId: string;
}

export interface OAuthAnswer {
  status: number;
  body?: unknown;
  /** A redirect's target. */
  location?: string;
}

const error = (status: number, code: string, description: string): OAuthAnswer => ({
  status,
  body: { error: code, error_description: description },
});

/**
 * Discord's OAuth2 authorization code flow, for the dashboard's tests: the consent page agrees at
 * once for the identity the test chose, the code is traded once for a Bearer token, and the token
 * reads the member's user and servers.
 */
export class OAuth2 {
  private identity: Required<OAuthIdentity>;
  private readonly grants = new Map<string, Grant>();
  private readonly tokens = new Map<string, Required<OAuthIdentity>>();
  /** Codes traded, refused trades included (for tests that check the code was traded server-side). */
  readonly trades: Array<{ code: string; ok: boolean }> = [];

  constructor(
    private readonly applicationId: string,
    readonly clientSecret: string,
    configuredGuildId: string,
  ) {
    this.identity = OAuth2.identity({
      userId: DEFAULTS.ownerId,
      username: 'Stand-in Owner',
      guilds: [{ id: configuredGuildId, owner: true, permissions: ALL_PERMISSIONS }],
    });
  }

  private static identity(who: OAuthIdentity): Required<OAuthIdentity> {
    return { username: `user_${who.userId.slice(-4)}`, locale: 'en-US', guilds: [], ...who };
  }

  signInAs(who: OAuthIdentity): void {
    this.identity = OAuth2.identity(who);
  }

  /** GET /oauth2/authorize: straight back to redirect_uri with a code and the state, as after "Authorize". */
  authorize(query: URLSearchParams): OAuthAnswer {
    const clientId = query.get('client_id');
    const redirectUri = query.get('redirect_uri');
    if (clientId !== this.applicationId) return error(400, 'invalid_client', 'Unknown client_id');
    if (query.get('response_type') !== 'code') return error(400, 'unsupported_response_type', 'response_type');
    if (!redirectUri) return error(400, 'invalid_request', 'Invalid redirect_uri');
    const code = randomBytes(15).toString('base64url');
    this.grants.set(code, { identity: this.identity, redirectUri, clientId });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    return { status: 302, location: back.toString() };
  }

  /** POST /oauth2/token (form body; the client's id and secret in Basic auth or in the body): a code, or the client alone. */
  token(body: URLSearchParams, authorization: string | undefined): OAuthAnswer {
    const [id, secret] = clientOf(body, authorization);
    if (id !== this.applicationId || secret !== this.clientSecret)
      return error(401, 'invalid_client', 'Invalid client');
    if (body.get('grant_type') === 'client_credentials') return this.ownerToken(body.get('scope') ?? 'identify');
    const code = body.get('code') ?? '';
    const grant = this.grants.get(code);
    this.grants.delete(code);
    const ok =
      body.get('grant_type') === 'authorization_code' &&
      grant !== undefined &&
      grant.redirectUri === body.get('redirect_uri');
    this.trades.push({ code, ok });
    if (!ok) return error(400, 'invalid_grant', 'Invalid "code" in request.');
    const accessToken = randomBytes(20).toString('base64url');
    this.tokens.set(accessToken, grant.identity);
    return {
      status: 200,
      body: {
        token_type: 'Bearer',
        access_token: accessToken,
        expires_in: 604_800,
        refresh_token: randomBytes(20).toString('base64url'),
        scope: 'identify guilds',
      },
    };
  }

  /**
   * The client credentials grant: a Bearer token for the application's owner, without a refresh token,
   * as Discord gives it for the id and secret alone (the doctor's check of DISCORD_CLIENT_SECRET).
   */
  private ownerToken(scope: string): OAuthAnswer {
    const accessToken = randomBytes(20).toString('base64url');
    this.tokens.set(accessToken, OAuth2.identity({ userId: DEFAULTS.ownerId, username: 'Stand-in Owner' }));
    return { status: 200, body: { token_type: 'Bearer', access_token: accessToken, expires_in: 604_800, scope } };
  }

  /** GET /users/@me and /users/@me/guilds with `Authorization: Bearer …`. */
  bearer(path: string, authorization: string): OAuthAnswer {
    const who = this.tokens.get(authorization.slice('Bearer '.length));
    if (!who) return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    if (path === '/users/@me') {
      const user: UserPayload & { locale: string; mfa_enabled: boolean } = {
        ...userPayload(who.userId, who.username),
        locale: who.locale,
        mfa_enabled: false,
      };
      return { status: 200, body: user };
    }
    if (path === '/users/@me/guilds')
      return {
        status: 200,
        body: who.guilds.map((guild) => ({
          id: guild.id,
          name: guild.name ?? `Server ${guild.id.slice(-4)}`,
          icon: null,
          banner: null,
          owner: guild.owner ?? false,
          permissions: (guild.permissions ?? 0n).toString(),
          features: [],
        })),
      };
    return { status: 404, body: { message: '404: Not Found', code: 0 } };
  }
}

function clientOf(body: URLSearchParams, authorization: string | undefined): [string | null, string | null] {
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    if (at > 0) return [decodeURIComponent(decoded.slice(0, at)), decodeURIComponent(decoded.slice(at + 1))];
  }
  return [body.get('client_id'), body.get('client_secret')];
}
