// Discord's size limits, named once. Builders check most of them, but validation is off in
// production (processes/bot.ts), so views cut text to these before handing it over.
export const EMBED_TITLE_MAX = 256;
export const EMBED_DESCRIPTION_MAX = 4096;
export const EMBED_FIELD_VALUE_MAX = 1024;
export const EMBED_FOOTER_MAX = 2048;
/** All titles, descriptions, field names and values and footers of one message's embeds together. */
export const EMBED_TOTAL_MAX = 6000;
export const CUSTOM_ID_MAX = 100;
/** A link button's URL. */
export const BUTTON_URL_MAX = 512;
/** A message's text. */
export const MESSAGE_CONTENT_MAX = 2000;
/** A message's nonce, which makes a retried post return the message the first try made. */
export const MESSAGE_NONCE_MAX = 25;
/** Embeds in one message. */
export const EMBEDS_PER_MESSAGE_MAX = 10;
/** Buttons in one action row. */
export const BUTTONS_PER_ROW_MAX = 5;
/** User ids in a message's allowed_mentions.users. */
export const ALLOWED_MENTIONS_USERS_MAX = 100;
/** An attachment's description, which screen readers read as the image's alt text. */
export const ATTACHMENT_DESCRIPTION_MAX = 1024;
/** A server's name. */
export const GUILD_NAME_MAX = 100;
/** A member's display name: anything longer is not a name Discord gave. */
export const DISPLAY_NAME_MAX = 32;
/**
 * A request's whole body, files and JSON together. Discord's API docs, Create Message
 * (discord/discord-api-docs, docs/resources/message.mdx): "The maximum request size when sending a
 * message is 25 MiB". A message with files is the largest body Discord documents.
 */
export const REQUEST_BODY_MAX = 25 * 1024 * 1024;
