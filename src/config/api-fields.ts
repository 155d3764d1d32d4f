import { isApiKey } from '../secrets/api-keys.js';
import { commaList, orDefault, yesNo, type Values } from './fields.js';

/** Single-server mode's keys to the vote API, separated by commas; never echoed. */
const apiKeys = commaList(
  isApiKey,
  'must be keys separated by commas, each vrk_ and at least 32 letters, digits, - or _ (make one with: echo vrk_$(openssl rand -hex 24))',
);

/** The vote API (docs/api.md), on the webhook receiver's port: part of the receiver's settings. */
export const API_FIELDS = {
  API_ENABLED: orDefault(yesNo("whether the receiver's port also answers the vote API (/api/v1, docs/api.md)"), false),
  API_KEYS: orDefault(apiKeys, []),
};

export interface ApiSettings {
  /** Single-server mode's keys (API_KEYS), bound to its one server; many servers make theirs with /setup api-key. */
  readonly keys: readonly string[];
}

/** `{ api }` when API_ENABLED=true, else nothing: the API is off. */
export function apiSettings(e: Values<typeof API_FIELDS>): { api?: ApiSettings } {
  return e.API_ENABLED ? { api: { keys: e.API_KEYS } } : {};
}

/** API_ENABLED and API_KEYS with what they need: the receiver's port, and one server for the keys. */
export function apiProblems(
  e: Partial<Values<typeof API_FIELDS>> & { WEBHOOK_PORT?: number },
  single: boolean,
): string[] {
  const problems: string[] = [];
  if (e.API_ENABLED && e.WEBHOOK_PORT === undefined)
    problems.push("API_ENABLED is true without WEBHOOK_PORT: the vote API answers on the webhook receiver's port");
  if ((e.API_KEYS ?? []).length > 0 && !single)
    problems.push(
      'API_KEYS is for a single server: DISCORD_GUILD_ID is empty, so each server makes its own keys with /setup api-key create',
    );
  return problems;
}
