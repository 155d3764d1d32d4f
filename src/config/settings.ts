import type { Fields } from './fields.js';
import { BOT_FIELDS } from './bot-fields.js';
import { REST_PROXY_FIELDS } from './rest-proxy.js';

/**
 * Every setting the bot reads, by variable name. docs/configuration.md and .env.example are checked
 * against it (names and defaults), so a new setting cannot go undocumented. The bot's table holds
 * every setting but the REST proxy's, the receiver's and the tools' among them.
 */
export const SETTINGS: Fields = { ...BOT_FIELDS, ...REST_PROXY_FIELDS };
