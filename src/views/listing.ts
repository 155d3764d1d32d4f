import { ButtonStyle } from 'discord-api-types/v10';
import { ActionRowBuilder, ButtonBuilder } from './components.js';
import { inlineCode } from '../core/discord-text.js';
import { encodeCustomId, Prefix } from '../core/custom-id.js';
import type { Translator } from '../i18n/index.js';
import { EmbedBuilder } from './embed-builder.js';
import { relativeTime } from './format.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';

/** What /setup listing shows of one listing's secret: whole once, then its end; none before Top.gg's is pasted. */
export type ShownSecret = { whole: string } | { end: string } | { environment: string } | { none: true };

export interface ListingFacts {
  /** The site's id (src/lists), in the form's button. */
  site: string;
  /** The site's own name, shown as is in every language. */
  name: string;
  /** Whether the site makes the secret (Top.gg) and it is pasted here, or the bot makes it. */
  secretFromSite: boolean;
  /** The address the site sends to; Discadia's ends with the secret when it is shown whole. */
  address: string;
  secret: ShownSecret;
  lastDeliveryAt: number | null;
  lastTestAt: number | null;
  /** How long a vote on it runs: "24 h (the site's default)", "12 h (set)", or as each vote says. */
  voteLength: string;
  /** The site's API token, for the one site whose votes are read back (Top.gg): its end, the host's setting, or none. */
  apiToken?: ShownApiToken;
}

/** What /setup listing shows of a listing's API token: never more than its end. */
export type ShownApiToken = { end: string } | { environment: string } | { none: true };

export interface ListingViewInput extends ListingFacts {
  /** What to paste where on the site. */
  steps: string;
  /** Set when WEBHOOK_PUBLIC_URL is not: the address is only the path, and this says so. */
  noPublicUrl?: string;
  i18n: Translator;
}

/** "test received ✔ <t:…:R>" or "no test yet": the same words in the answer, the list and /setup status. */
export function lastTestText(lastTestAt: number | null, { t }: Translator): string {
  return lastTestAt === null
    ? t('setup.listing.noTest')
    : t('setup.listing.testReceived', { when: relativeTime(new Date(lastTestAt)) });
}

export function lastDeliveryText(lastDeliveryAt: number | null, { t }: Translator): string {
  return lastDeliveryAt === null ? t('setup.webhook.never') : relativeTime(new Date(lastDeliveryAt));
}

function secretText({ secret, secretFromSite }: ListingFacts, { t }: Translator): string {
  if ('whole' in secret) return inlineCode(secret.whole);
  if ('end' in secret)
    return t(secretFromSite ? 'setup.listing.keptFromSite' : 'setup.webhook.tokenKept', { last4: secret.end });
  if ('environment' in secret) return t('setup.listing.fromEnvironment', { variable: secret.environment });
  return t('setup.listing.noSecretYet');
}

function apiTokenText(token: ShownApiToken, { t }: Translator): string {
  if ('end' in token) return t('setup.listing.apiTokenKept', { last4: token.end });
  if ('environment' in token) return t('setup.listing.fromEnvironment', { variable: token.environment });
  return t('setup.listing.apiTokenNone');
}

/** The API token's field, for a listing that can have one. */
const apiTokenField = ({ apiToken }: ListingFacts, i18n: Translator) =>
  apiToken === undefined ? [] : [{ name: i18n.t('setup.listing.apiToken'), value: apiTokenText(apiToken, i18n) }];

/** The "Paste the secret" button of a list that makes its own secret (Top.gg): it opens the form. */
function pasteRows({ site, secretFromSite }: ListingFacts, { t }: Translator): ActionRowBuilder<ButtonBuilder>[] {
  if (!secretFromSite) return [];
  const button = new ButtonBuilder()
    .setCustomId(encodeCustomId(Prefix.setupListing, site))
    .setStyle(ButtonStyle.Primary)
    .setLabel(t('setup.listing.paste'));
  return [new ActionRowBuilder<ButtonBuilder>().addComponents(button)];
}

/** `/setup listing add`: the address, what to paste where on the site, and the secret. */
export function listingView(input: ListingViewInput): MessageView {
  const { name, address, secret, i18n, noPublicUrl } = input;
  const { t } = i18n;
  const notes = [input.steps];
  if ('whole' in secret) notes.push(t('setup.listing.onlyOnce'));
  if (noPublicUrl) notes.push(noPublicUrl);
  const embed = new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle(t('setup.listing.title', { site: name }))
    .setDescription(notes.join('\n\n'))
    .addFields(
      { name: t('setup.webhook.url'), value: inlineCode(address) },
      { name: t('setup.listing.secret'), value: secretText(input, i18n) },
      { name: t('setup.webhook.lastDelivery'), value: lastDeliveryText(input.lastDeliveryAt, i18n) },
      { name: t('setup.listing.lastTest'), value: lastTestText(input.lastTestAt, i18n) },
      { name: t('setup.listing.voteLength'), value: input.voteLength },
      ...apiTokenField(input, i18n),
    );
  return messageView(embed, pasteRows(input, i18n));
}

/** `/setup listing list`: each listing with its address, its secret's end, its last delivery and last test. */
export function listingsView(listings: readonly ListingFacts[], i18n: Translator): MessageView {
  const { t } = i18n;
  const embed = new EmbedBuilder().setColor(ToneColour.info).setTitle(t('setup.listing.listTitle'));
  if (listings.length === 0) embed.setDescription(t('setup.listing.none', { command: '`/setup listing add`' }));
  for (const listing of listings)
    embed.addFields({
      name: listing.name,
      value: [
        inlineCode(listing.address),
        `${t('setup.listing.secret')}: ${secretText(listing, i18n)}`,
        `${t('setup.webhook.lastDelivery')}: ${lastDeliveryText(listing.lastDeliveryAt, i18n)}`,
        `${t('setup.listing.lastTest')}: ${lastTestText(listing.lastTestAt, i18n)}`,
        `${t('setup.listing.voteLength')}: ${listing.voteLength}`,
        ...apiTokenField(listing, i18n).map((field) => `${field.name}: ${field.value}`),
      ].join('\n'),
    });
  return messageView(embed);
}
