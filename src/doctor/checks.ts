import type { CheckEntry } from './run-checks.js';
import { configCheck } from './config-check.js';
import { dashboardCheck } from './dashboard-check.js';
import { discordChannelChecks } from './discord-channels.js';
import { discordCommandsCheck } from './discord-commands.js';
import { discordGuildCheck } from './discord-guild.js';
import { discordRoleChecks } from './discord-roles.js';
import { discordTokenCheck } from './discord-token.js';
import { serviceBaseUrlCheck } from './service-base-url.js';
import { serviceCredentialsCheck } from './service-credentials.js';
import { serviceRateLimitCheck } from './service-rate-limit.js';
import { serviceReachableCheck } from './service-reachable.js';
import { serviceRemainingUnitCheck } from './service-remaining-unit.js';
import { serviceSchemaChecks } from './service-schemas.js';
import { storeCheck } from './store-check.js';
import { webhookCheck } from './webhook-check.js';
import { listingChecks, listingLines } from './listing-checks.js';
import { serverCheck } from './server-check.js';
import { settingNamesCheck } from './setting-names.js';

/** Every check, in the order an admin fixes things: each may skip when an earlier one failed. */
export const ALL_CHECKS: readonly CheckEntry[] = [
  configCheck,
  settingNamesCheck,
  storeCheck,
  discordTokenCheck,
  discordGuildCheck,
  discordCommandsCheck,
  discordChannelChecks,
  discordRoleChecks,
  serviceBaseUrlCheck,
  serviceReachableCheck,
  serviceCredentialsCheck,
  ...serviceSchemaChecks,
  serviceRateLimitCheck,
  serviceRemainingUnitCheck,
  webhookCheck,
  listingChecks,
  listingLines,
  dashboardCheck,
];

/** `--server <id>`: the same checks, with that server's stored settings laid over the configuration. */
export function checksForServer(guildId: string): CheckEntry[] {
  const [config, names, store, ...rest] = ALL_CHECKS;
  return [config!, names!, store!, serverCheck(guildId), ...rest];
}
