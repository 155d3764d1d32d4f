/**
 * A local Discord (REST + gateway on 127.0.0.1) that an unmodified discord.js client logs into.
 *
 *   const discord = await startDiscordStandIn();
 *   // bot: new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: discord.apiUrl } }).login(discord.token)
 *   await discord.waitForReady();
 *   const handle = discord.sendInteraction(slashCommand({ name: 'votes', member: member({ permissions: MODERATOR_PERMISSIONS }) }));
 *   const reply = await handle.waitForMessage();
 */
export {
  startDiscordStandIn,
  type DiscordStandIn,
  type DiscordStandInOptions,
  type HttpInteractionHandle,
} from './standin.js';
export type { HttpAnswer, Signing } from './signed-http.js';
export { isModal, type InteractionHandle, type InteractionResponse } from './interaction-record.js';
export {
  buttonClick,
  member,
  modalSubmit,
  slashCommand,
  stringSelect,
  InteractionType,
  OptionType,
} from './payloads.js';
export type {
  ButtonClickOptions,
  CommandOption,
  MemberOptions,
  ModalSubmitOptions,
  SelectMenuOptions,
  SlashCommandOptions,
} from './payloads.js';
export {
  DEFAULTS,
  MEMBER_PERMISSIONS,
  MODERATOR_PERMISSIONS,
  Permission,
  textChannelIdFor,
  voterRoleIdFor,
} from './fixtures.js';
export { nextSnowflake, snowflakeAt } from './snowflake.js';
export { guildIdOnShard, shardOf, type IdentifyRecord } from './shards.js';
export { attachmentBytes } from './store.js';
export type {
  Callback,
  InteractionPayload,
  MemberPayload,
  Message,
  ModalResponse,
  RecordedRequest,
  RejectedCallback,
  RoleChange,
  UserPayload,
  WebhookCall,
} from './types.js';
