// Vote forwarding (issue 51, docs/forwarding-and-api.md): FORWARD_URLS and FORWARD_SECRET are one
// server's destinations; with many servers each adds its own with /setup forward.
import { FORWARD_DESTINATIONS_MAX, forwardUrlProblem } from '../core/forward-url.js';
import { type Check, ok, optional, orDefault, trimmed, type Values, yesNo } from './fields.js';

const URL_WORDS = {
  invalid: 'must be full URLs separated by commas, such as https://bot.example.com/votes',
  notHttps: 'must be https:// URLs (http:// only with FORWARD_ALLOW_PRIVATE=true, for local tests)',
  credentials: 'must not hold a user name or password: the signature proves the sender',
} as const;

const urlList: Check<string[]> = (text) => {
  const urls = text
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  return ok(urls);
};

export const FORWARD_FIELDS = {
  FORWARD_URLS: optional(urlList),
  FORWARD_SECRET: optional(trimmed),
  FORWARD_ALLOW_PRIVATE: orDefault(
    yesNo('whether votes may be forwarded over plain http and to private, loopback and link-local addresses'),
    false,
  ),
};

type ForwardValues = Partial<Values<typeof FORWARD_FIELDS>>;

/** Vote forwarding's settings: the environment's destinations (one server) and the address rule. */
export interface ForwardSettings {
  readonly urls: readonly string[];
  readonly secret: string | undefined;
  readonly allowPrivate: boolean;
}

export function forwardSettings(e: Values<typeof FORWARD_FIELDS>): ForwardSettings {
  return { urls: e.FORWARD_URLS ?? [], secret: e.FORWARD_SECRET, allowPrivate: e.FORWARD_ALLOW_PRIVATE };
}

/** FORWARD_URLS: one server's, each usable, at most FORWARD_DESTINATIONS_MAX, with FORWARD_SECRET beside them. */
export function forwardProblems(e: ForwardValues, single: boolean): string[] {
  const urls = e.FORWARD_URLS ?? [];
  if (urls.length === 0) return [];
  if (!single)
    return [
      'FORWARD_URLS is for a single server: DISCORD_GUILD_ID is empty, so each server adds its own with /setup forward add',
    ];
  const problems: string[] = [];
  const wrong = urls.map((url) => forwardUrlProblem(url, e.FORWARD_ALLOW_PRIVATE ?? false)).find((p) => p);
  if (wrong) problems.push(`FORWARD_URLS ${URL_WORDS[wrong]}`);
  if (urls.length > FORWARD_DESTINATIONS_MAX)
    problems.push(`FORWARD_URLS has ${urls.length} URLs: at most ${FORWARD_DESTINATIONS_MAX}`);
  if (e.FORWARD_SECRET === undefined || e.FORWARD_SECRET.length < 16)
    problems.push(
      'FORWARD_SECRET is missing or shorter than 16 characters: FORWARD_URLS is set, and every forwarded vote is signed with it (make one with: openssl rand -hex 24)',
    );
  return problems;
}
