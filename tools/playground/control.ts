import { renderMessage, renderModal, plainStyle, type RenderContext } from '../demo/render.js';
import {
  buttonClick,
  isModal,
  member,
  modalSubmit,
  slashCommand,
  type DiscordStandIn,
  type CommandOption,
  type InteractionHandle,
  type InteractionPayload,
  type Message,
  type ModalResponse,
} from '../discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../guilds-webhook.js';
import { sendAs } from '../list-senders/send.js';
import { askApi, keepApiKey } from './api-request.js';
import { decodeCustomId, Prefix } from '../../src/core/custom-id.js';
import { english } from '../../src/i18n/index.js';
import { isAdaptedSiteId, SITE_FACTS, type AdaptedSiteId } from '../../src/lists/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { CAST, findPerson, type Person } from './cast.js';
import { startLine } from './env-file.js';
import { readSendLine, SendLineError, type CommandDefinition, type SendRequest } from './send-line.js';
import type { PlaygroundServer } from './servers.js';

/* The playground's answer to one `send`: it acts in the stand-in (a member's command) or as Guilds
 * (a delivery to the bot's receiver), waits for what the bot posts and renders it as text. */

/** How long a `send` waits for the bot: well past Discord's 3 s, so a slow answer still shows. */
export const ANSWER_WAIT_MS = 10_000;
/** A vote the playground casts runs this long, as on Guilds. */
const VOTE_MS = 12 * 60 * 60_000;

export interface PlaygroundParts {
  discord: DiscordStandIn;
  sandbox: Sandbox;
  commands: readonly CommandDefinition[];
  /** The receiver's plain path; in many-server mode each server's is this, then `/<server id>`. */
  webhookUrl: string;
  /** WEBHOOK_TOKEN in single-server mode; undefined in many-server mode, where each server makes its own. */
  webhookToken: string | undefined;
  /** The servers the bot is in; more than one is many-server mode. */
  servers: readonly PlaygroundServer[];
  /** Each server's token as `/setup webhook` showed it whole (many-server mode): deliveries carry it. */
  serverTokens: Map<string, string>;
  /** The listing the playground's server has on each list besides Guilds (LISTING_<SITE>_SECRET). */
  listingSecrets: Readonly<Record<AdaptedSiteId, string>>;
  /** Many-server mode: each server's listing secrets as `/setup listing add` showed them or its form took them. */
  serverListings: Map<string, Map<AdaptedSiteId, string>>;
  /** Each server's key to the vote API: API_KEYS's for the one server, or the one `/setup api-key create` showed. */
  apiKeys: Map<string, string>;
  /** The bot's last answer with buttons in each server, and who saw it: what `press` presses. */
  lastAnswers: Map<string, { message: Message; by: Person }>;
  /** The line that starts the bot, for messages that tell a newcomer to start it. */
  startLine: string;
  /** The settings file, for the line that starts `npm run interactions` against it. */
  envFile: string;
}

export interface SendAnswer {
  /** 200 answered, 400 bad input (the text says why), 504 no answer in time, 503 the bot is not reachable. */
  status: number;
  text: string;
  /** The line as the playground's terminal may show it (form values left out); undefined when it was not read. */
  shown?: string;
}

export function renderContext(discord: DiscordStandIn, servers: readonly PlaygroundServer[]): RenderContext {
  return {
    now: new Date(),
    users: new Map([...CAST.map((p): [string, string] => [p.id, p.name]), [discord.botUserId, 'Vote Review Bot']]),
    roles: new Map(servers.flatMap((server) => server.roles.map((role): [string, string] => [role.id, role.name]))),
    channels: new Map(servers.map((server): [string, string] => [server.channel.id, server.channel.name])),
    width: 100,
    style: plainStyle,
  };
}

function notConnected(parts: PlaygroundParts): SendAnswer {
  const text =
    parts.discord.gatewaySessions > 0
      ? 'The bot is not connected to the playground now: did it stop? Its terminal says why; start it again with: '
      : 'The bot has not connected to the playground yet. Start it in another terminal: ';
  return { status: 503, text: `${text}${parts.startLine}\n` };
}

/** The text inputs' custom ids in a form, in order (labelled or in action rows). */
function formFields(modal: ModalResponse): string[] {
  type Part = { type?: number; custom_id?: string; component?: Part; components?: Part[] };
  const inputs = (components: readonly Part[]): string[] =>
    components.flatMap((c) =>
      c.type === 4
        ? [String(c.custom_id)]
        : [...(c.component ? inputs([c.component]) : []), ...inputs(c.components ?? [])],
    );
  return inputs(modal.components);
}

/** `/setup webhook` shows a new token whole once: kept, so `send webhook vote` can deliver to that server. */
function keepWebhookToken(parts: PlaygroundParts, server: PlaygroundServer, answer: Message): void {
  const token = shownWhole(answer, english.t('setup.webhook.token'));
  if (token !== undefined) parts.serverTokens.set(server.id, token);
}

/** A secret an answer shows whole (as inline code) in its embed's field `name`; undefined when only its end is shown. */
function shownWhole(answer: Message, name: string): string | undefined {
  const fields = (answer.embeds?.[0]?.fields ?? []) as Array<{ name: string; value: string }>;
  const value = fields.find((field) => field.name === name)?.value;
  return value === undefined ? undefined : /^`([^`]+)`$/.exec(value)?.[1];
}

/** A secret `/setup listing add` made and shows whole once: kept, so `send webhook vote site:` can sign with it. */
function keepListingSecret(parts: PlaygroundParts, server: PlaygroundServer, site: unknown, answer: Message): void {
  if (typeof site !== 'string' || !isAdaptedSiteId(site)) return;
  const secret = shownWhole(answer, english.t('setup.listing.secret'));
  if (secret !== undefined) listingsOf(parts, server).set(site, secret);
}

function listingsOf(parts: PlaygroundParts, server: PlaygroundServer): Map<AdaptedSiteId, string> {
  const kept = parts.serverListings.get(server.id) ?? new Map<AdaptedSiteId, string>();
  parts.serverListings.set(server.id, kept);
  return kept;
}

/** The value of the option `name` anywhere in a command's options (under its group and subcommand). */
function optionNamed(options: readonly CommandOption[], name: string): unknown {
  for (const option of options) {
    if (option.name === name) return option.value;
    const inner = option.options && optionNamed(option.options, name);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** The buttons on a message the bot handles (link buttons have no custom id and are not pressed). */
function buttonsOf(message: Message): Array<{ label: string; customId: string }> {
  type Part = { type?: number; label?: string; custom_id?: string; components?: Part[] };
  const all = (parts: readonly Part[]): Part[] => parts.flatMap((part) => [part, ...all(part.components ?? [])]);
  return all(message.components ?? [])
    .filter((part) => part.type === 2 && part.custom_id !== undefined)
    .map((part) => ({ label: String(part.label ?? ''), customId: String(part.custom_id) }));
}

/** Under an answer with buttons: how to press each. */
function pressHint(message: Message, server: PlaygroundServer, multi: boolean): string {
  const buttons = buttonsOf(message);
  if (buttons.length === 0) return '';
  const where = multi ? ` --server ${server.n}` : '';
  return buttons
    .map(
      (button) => `To press “${button.label}”: send press "${button.label}"${where}
`,
    )
    .join('');
}

type CommandRequest = Extract<SendRequest, { kind: 'command' }>;
type VoteRequest = Extract<SendRequest, { kind: 'vote' }>;

/**
 * Sends an interaction as Discord does: over the gateway to the bot, or with `--http` signed to the
 * Interactions Endpoint (`npm run interactions`) on that port; a reason instead when neither can take it.
 */
async function dispatch(
  parts: PlaygroundParts,
  payload: InteractionPayload,
  http: number | undefined,
): Promise<InteractionHandle | SendAnswer> {
  if (http === undefined) {
    // Sent now or never: a command queued for a bot that is away would reach it long past its 3 s.
    if (!parts.discord.connected) return notConnected(parts);
    return parts.discord.sendInteraction(payload);
  }
  const url = `http://127.0.0.1:${http}/interactions`;
  const handle = parts.discord.sendInteractionHttp(url, payload);
  try {
    const answer = await handle.answered;
    if (answer.status !== 200)
      return { status: 502, text: `The endpoint at ${url} answered ${answer.status}: ${answer.body.toString()}\n` };
  } catch {
    const line = startLine(parts.envFile, `INTERACTIONS_PORT=${http} npm run interactions`);
    return { status: 503, text: `Nothing answers at ${url}. Start the Interactions Endpoint there: ${line}\n` };
  }
  return handle;
}

const isAnswer = (sent: InteractionHandle | SendAnswer): sent is SendAnswer => 'status' in sent && 'text' in sent;

async function sendCommand(parts: PlaygroundParts, request: CommandRequest): Promise<SendAnswer> {
  const { discord } = parts;
  const { server } = request;
  const resolvedUsers = request.targets.map((id) => findPerson(id)?.member ?? member({ id }));
  const handle = await dispatch(
    parts,
    slashCommand({
      name: request.name,
      guildId: server.id,
      member: request.as.member,
      options: request.options,
      resolvedUsers,
      resolvedRoles: request.roles,
    }),
    request.http,
  );
  if (isAnswer(handle)) return handle;
  const answer = await answerOf(handle, request.shown);
  if (typeof answer === 'string') return { status: 504, text: answer };
  const where = parts.servers.length > 1 ? ` (server ${server.n})` : '';
  const via = request.http === undefined ? '' : ' (over HTTP)';
  const head = `${request.as.name} › ${request.shown.replace(/\s+as:\S+/i, '')}${where}${via}\n`;
  const ctx = renderContext(discord, parts.servers);
  const given = Object.keys(request.fields);
  if (!isModal(answer.response)) {
    keepWebhookToken(parts, server, answer.response);
    keepListingSecret(parts, server, optionNamed(request.options, 'site'), answer.response);
    keepApiKey(parts.apiKeys, server, answer.response);
    remember(parts, server, request.as, answer.response);
    const shown = renderMessage(answer.response, ctx, { author: 'Vote Review Bot', ...answer.note });
    const hint = pressHint(answer.response, server, parts.servers.length > 1);
    if (given.length === 0) return { status: 200, text: `${head}${shown}\n${hint}` };
    // The command took no options and answered with a message: the fields had no form to go in.
    return {
      status: 400,
      text: `${head}${shown}\n/${request.name} answered with a message, not a form: ${given.map((k) => `${k}:`).join(', ')} went nowhere.\n`,
    };
  }
  const open = { form: answer.response, as: request.as, server, fields: request.fields, head, http: request.http };
  return fillForm(parts, open, request.shown);
}

/** The bot's answer kept for `press`, when it has buttons to press. */
function remember(parts: PlaygroundParts, server: PlaygroundServer, by: Person, message: Message): void {
  if (buttonsOf(message).length > 0) parts.lastAnswers.set(server.id, { message, by });
}

interface OpenForm {
  form: ModalResponse;
  as: Person;
  server: PlaygroundServer;
  fields: Record<string, string>;
  /** What was shown before the form: the command or button that opened it. */
  head: string;
  /** Submitted over HTTP, as the form was opened. */
  http: number | undefined;
}

/** Shows a form, or fills it with the fields given and submits it, as a member would. */
async function fillForm(parts: PlaygroundParts, open: OpenForm, line: string): Promise<SendAnswer> {
  const { form, as, server, head } = open;
  const ctx = renderContext(parts.discord, parts.servers);
  const fields = formFields(form);
  const given = Object.keys(open.fields);
  if (given.length === 0) {
    const where = parts.servers.length > 1 ? ` --server ${server.n}` : '';
    const fill = `send ${line} ${fields.map((f) => `${f}:…`).join(' ')}${where}`;
    return { status: 200, text: `${head}${renderModal(form, ctx)}\nTo fill it and submit: ${fill}\n` };
  }
  const unknown = given.filter((key) => !fields.includes(key));
  const missing = fields.filter((key) => !given.includes(key));
  if (unknown.length + missing.length > 0)
    // The form stays unsubmitted, as when a member closes it: nothing changes.
    return {
      status: 400,
      text: `The form of ${line.split(' ').slice(0, 2).join(' ')} has the fields ${fields.map((f) => `${f}:`).join(', ')}; type each once, e.g. ${fields.map((f) => `${f}:…`).join(' ')}.\n`,
    };
  const submitted = await dispatch(
    parts,
    modalSubmit({ customId: form.custom_id, guildId: server.id, member: as.member, fields: open.fields }),
    open.http,
  );
  if (isAnswer(submitted)) return submitted;
  const reply = await answerOf(submitted, `the form of ${line}`);
  if (typeof reply === 'string') return { status: 504, text: reply };
  if (isModal(reply.response)) return { status: 502, text: 'The bot answered the form with another form.\n' };
  keepPastedSecret(parts, server, form, open.fields);
  const filled = `${renderModal(form, ctx)}\n${as.name} fills in ${given.map((k) => `${k}:`).join(', ')} and submits\n`;
  const shown = renderMessage(reply.response, ctx, { author: 'Vote Review Bot', ...reply.note });
  return { status: 200, text: `${head}${filled}${shown}\n` };
}

/** A secret pasted into a list's form (Top.gg's own): kept for `send webhook vote site:` to sign with. */
function keepPastedSecret(
  parts: PlaygroundParts,
  server: PlaygroundServer,
  form: ModalResponse,
  fields: Record<string, string>,
) {
  const id = decodeCustomId(form.custom_id);
  if (id?.prefix !== Prefix.setupListingSecret || !isAdaptedSiteId(id.arg) || fields.secret === undefined) return;
  listingsOf(parts, server).set(id.arg, fields.secret.trim());
}

type PressRequest = Extract<SendRequest, { kind: 'press' }>;

/** Presses a button on the bot's last answer in the server: a form opens (and is filled), or the bot answers. */
async function pressButton(parts: PlaygroundParts, request: PressRequest): Promise<SendAnswer> {
  const { discord } = parts;
  const { server } = request;
  const last = parts.lastAnswers.get(server.id);
  const multi = parts.servers.length > 1 ? ` (server ${server.n})` : '';
  if (!last)
    return {
      status: 409,
      text: `No answer of the bot${multi} has buttons yet: send the command whose answer has the button first.\n`,
    };
  const wanted = request.label.toLowerCase();
  const buttons = buttonsOf(last.message);
  const button = buttons.find((b) => b.label.toLowerCase().startsWith(wanted));
  if (!button)
    return {
      status: 400,
      text: `The bot's last answer${multi} has no button “${request.label}”; it has ${buttons.map((b) => `“${b.label}”`).join(', ')}.\n`,
    };
  const as = request.as ?? last.by;
  const handle = await dispatch(
    parts,
    buttonClick({ customId: button.customId, guildId: server.id, member: as.member, message: last.message }),
    request.http,
  );
  if (isAnswer(handle)) return handle;
  const answer = await answerOf(handle, `“${button.label}”`);
  if (typeof answer === 'string') return { status: 504, text: answer };
  const via = request.http === undefined ? '' : ' (over HTTP)';
  const head = `${as.name} presses “${button.label}”${multi}${via}\n`;
  if (isModal(answer.response)) {
    const open = { form: answer.response, as, server, fields: request.fields, head, http: request.http };
    return fillForm(parts, open, request.shown);
  }
  remember(parts, server, as, answer.response);
  const shown = renderMessage(answer.response, renderContext(discord, parts.servers), {
    author: 'Vote Review Bot',
    ...answer.note,
  });
  return { status: 200, text: `${head}${shown}\n${pressHint(answer.response, server, parts.servers.length > 1)}` };
}

/** The bot's answer to an interaction and how long it took, or why there is none. */
async function answerOf(handle: InteractionHandle, shown: string) {
  let response;
  try {
    response = await handle.waitForResponse(ANSWER_WAIT_MS);
  } catch {
    return `No answer to ${shown} within ${ANSWER_WAIT_MS / 1000} s: the bot's terminal says why.\n`;
  }
  const first = handle.callbacks[0];
  const ms = first && !Number.isNaN(handle.sentAt) ? Math.max(0, Math.round(first.at - handle.sentAt)) : undefined;
  return { response, note: ms === undefined ? {} : { note: `${ms} ms` } };
}

/**
 * Delivers as Guilds does and shows the bot's next post in the server's channel: to the plain path
 * with WEBHOOK_TOKEN, or in many-server mode to the server's own address with the token its
 * `/setup webhook` showed.
 */
async function sendDelivery(
  parts: PlaygroundParts,
  person: Person,
  server: PlaygroundServer,
  body: unknown,
  shown: string,
): Promise<SendAnswer> {
  const url = parts.webhookToken === undefined ? `${parts.webhookUrl}/${server.id}` : parts.webhookUrl;
  const token = parts.webhookToken ?? parts.serverTokens.get(server.id);
  if (token === undefined)
    return {
      status: 409,
      text:
        `Server ${server.n} has no webhook token the playground saw: send /setup webhook --server ${server.n} first ` +
        `(it shows a new token whole once; rotate:true makes another).\n`,
    };
  return deliverAndShow(parts, person, server, shown, 'Guilds', () => deliver(url, token, body));
}

/**
 * Delivers as `site` does (tools/list-senders: signed or authorized, retried as it documents) to the
 * server's listing: the one the settings file sets, or in many-server mode the one `/setup listing add` made.
 */
function sendListVote(parts: PlaygroundParts, request: VoteRequest & { site: AdaptedSiteId }): Promise<SendAnswer> {
  const { site, member: voter, double, shown, server } = request;
  const many = parts.webhookToken === undefined;
  const secret = many ? parts.serverListings.get(server.id)?.get(site) : parts.listingSecrets[site];
  if (secret === undefined)
    return Promise.resolve({
      status: 409,
      text:
        `Server ${server.n} has no ${SITE_FACTS[site].name} listing the playground saw: ` +
        `send /setup listing add site:${site} --server ${server.n} first` +
        (SITE_FACTS[site].secretFrom === 'site' ? `, then press "Paste the secret" with secret:… .\n` : '.\n'),
    });
  const vote = { guildId: server.id, memberId: voter.id, memberName: voter.name, weight: double ? 2 : 1 };
  const send = async () => {
    const { status } = await sendAs(site, {
      url: many ? `${parts.webhookUrl}/${server.id}/${site}` : `${parts.webhookUrl}/${site}`,
      secret,
      vote,
      delayScale: 0.01,
    });
    if (status === 'network') throw new Error('nothing listens');
    return status === 'timeout' ? 504 : status;
  };
  return deliverAndShow(parts, voter, server, shown, SITE_FACTS[site].name, send);
}

async function deliverAndShow(
  parts: PlaygroundParts,
  person: Person,
  server: PlaygroundServer,
  shown: string,
  from: string,
  send: () => Promise<number>,
): Promise<SendAnswer> {
  const { discord } = parts;
  const channel = server.channel.id;
  const before = discord.channelMessages(channel).length;
  let status: number;
  try {
    status = await send();
  } catch {
    return {
      status: 503,
      text: `Nothing listens at ${parts.webhookUrl}: start the bot with the playground's settings (${parts.startLine}).\n`,
    };
  }
  if (status !== 200) return { status: 502, text: `The bot's receiver answered ${status} to ${shown}.\n` };
  try {
    await discord.waitUntil(
      () => discord.channelMessages(channel).length > before,
      ANSWER_WAIT_MS,
      'a post in #general',
    );
  } catch {
    return {
      status: 504,
      text:
        `The receiver took ${shown} (200) but the bot posted nothing in #general within ${ANSWER_WAIT_MS / 1000} s. ` +
        `It announces one vote per member per vote period: ${person.name}'s may have been announced already.\n`,
    };
  }
  const post = discord.channelMessages(channel)[before] as Message;
  const where = parts.servers.length > 1 ? ` (server ${server.n})` : '';
  return {
    status: 200,
    text: `${from} › ${shown}${where}\n${renderMessage(post, renderContext(discord, parts.servers))}\n`,
  };
}

let reviews = 0;

/** Answers one `send`: the words as typed after `send`. */
export async function answerSend(parts: PlaygroundParts, words: string[]): Promise<SendAnswer> {
  let request: SendRequest;
  try {
    request = readSendLine(words, parts.commands, parts.servers);
  } catch (error) {
    if (error instanceof SendLineError) return { status: 400, text: `${error.message}\n` };
    throw error;
  }
  return { ...(await answerRequest(parts, request)), shown: request.shown };
}

async function answerRequest(parts: PlaygroundParts, request: SendRequest): Promise<SendAnswer> {
  const { sandbox } = parts;
  switch (request.kind) {
    case 'command':
      return sendCommand(parts, request);
    case 'press':
      return pressButton(parts, request);
    case 'api':
      return askApi(parts.webhookUrl, parts.apiKeys, request);
    case 'vote': {
      if (request.site) return sendListVote(parts, { ...request, site: request.site });
      // As on Guilds: the service has the vote before its webhook goes out (the bot asks it back).
      sandbox.setVote(request.member.id, VOTE_MS);
      const voter = request.member;
      const names = { username: voter.name.toLowerCase(), global_name: voter.name };
      const event = voteEvent(request.server.id, voter.id, request.double, true, names);
      return sendDelivery(parts, voter, request.server, event, request.shown);
    }
    case 'review': {
      reviews += 1;
      const id = `rev_play${String(reviews).padStart(4, '0')}`;
      const { rating, content } = request;
      const authorId = request.member.id;
      sandbox.setReview({ id, rating, content, likes: 0, replies: 0, created_at: new Date().toISOString(), authorId });
      const event = reviewEvent(request.server.id, { id, authorId, content, rating });
      return sendDelivery(parts, request.member, request.server, event, request.shown);
    }
  }
}
