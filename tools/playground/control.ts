import { renderMessage, renderModal, plainStyle, type RenderContext } from '../demo/render.js';
import { isModal, member, slashCommand, type DiscordStandIn, type Message } from '../discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../guilds-webhook.js';
import { sendAs } from '../list-senders/send.js';
import { SITE_FACTS, type AdaptedSiteId } from '../../src/lists/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { CAST, findPerson, type Person } from './cast.js';
import { readSendLine, SendLineError, type CommandDefinition, type SendRequest } from './send-line.js';

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
  webhookUrl: string;
  webhookToken: string;
  /** The listing the playground's server has on each list besides Guilds (LISTING_<SITE>_SECRET). */
  listingSecrets: Readonly<Record<AdaptedSiteId, string>>;
  /** The line that starts the bot, for messages that tell a newcomer to start it. */
  startLine: string;
}

export interface SendAnswer {
  /** 200 answered, 400 bad input (the text says why), 504 no answer in time, 503 the bot is not reachable. */
  status: number;
  text: string;
}

export function renderContext(discord: DiscordStandIn): RenderContext {
  return {
    now: new Date(),
    users: new Map([...CAST.map((p): [string, string] => [p.id, p.name]), [discord.botUserId, 'Vote Review Bot']]),
    roles: new Map([[discord.moderatorRoleId, 'Moderator']]),
    channels: new Map([[discord.channelId, 'general']]),
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

async function sendCommand(parts: PlaygroundParts, request: Extract<SendRequest, { kind: 'command' }>) {
  const { discord } = parts;
  // Sent now or never: a command queued for a bot that is away would reach it long past its 3 s.
  if (!discord.connected) return notConnected(parts);
  const resolvedUsers = request.targets.map((id) => findPerson(id)?.member ?? member({ id }));
  const handle = discord.sendInteraction(
    slashCommand({ name: request.name, member: request.as.member, options: request.options, resolvedUsers }),
  );
  let answer;
  try {
    answer = await handle.waitForResponse(ANSWER_WAIT_MS);
  } catch {
    return {
      status: 504,
      text: `No answer to ${request.shown} within ${ANSWER_WAIT_MS / 1000} s: the bot's terminal says why.\n`,
    };
  }
  const first = handle.callbacks[0];
  const ms = first && !Number.isNaN(handle.sentAt) ? Math.max(0, Math.round(first.at - handle.sentAt)) : undefined;
  const head = `${request.as.name} › ${request.shown.replace(/\s+as:\S+/i, '')}\n`;
  const ctx = renderContext(discord);
  const body = isModal(answer)
    ? renderModal(answer, ctx)
    : renderMessage(answer, ctx, { author: 'Vote Review Bot', ...(ms === undefined ? {} : { note: `${ms} ms` }) });
  return { status: 200, text: `${head}${body}\n` };
}

/** Delivers as Guilds does and shows the bot's next post in the channel. */
function sendDelivery(parts: PlaygroundParts, person: Person, body: unknown, shown: string): Promise<SendAnswer> {
  return deliverAndShow(parts, person, shown, 'Guilds', () => deliver(parts.webhookUrl, parts.webhookToken, body));
}

/** Delivers as `site` does (tools/list-senders: signed or authorized, retried as it documents) to the server's listing. */
function sendListVote(parts: PlaygroundParts, site: AdaptedSiteId, voter: Person, double: boolean, shown: string) {
  const vote = { guildId: parts.discord.guildId, memberId: voter.id, memberName: voter.name, weight: double ? 2 : 1 };
  const send = async () => {
    const { status } = await sendAs(site, {
      url: `${parts.webhookUrl}/${site}`,
      secret: parts.listingSecrets[site],
      vote,
      delayScale: 0.01,
    });
    if (status === 'network') throw new Error('nothing listens');
    return status === 'timeout' ? 504 : status;
  };
  return deliverAndShow(parts, voter, shown, SITE_FACTS[site].name, send);
}

async function deliverAndShow(
  parts: PlaygroundParts,
  person: Person,
  shown: string,
  from: string,
  send: () => Promise<number>,
): Promise<SendAnswer> {
  const { discord } = parts;
  const before = discord.channelMessages(discord.channelId).length;
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
      () => discord.channelMessages(discord.channelId).length > before,
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
  const post = discord.channelMessages(discord.channelId)[before] as Message;
  return { status: 200, text: `${from} › ${shown}\n${renderMessage(post, renderContext(discord))}\n` };
}

let reviews = 0;

/** Answers one `send`: the words as typed after `send`. */
export async function answerSend(parts: PlaygroundParts, words: string[]): Promise<SendAnswer> {
  let request: SendRequest;
  try {
    request = readSendLine(words, parts.commands);
  } catch (error) {
    if (error instanceof SendLineError) return { status: 400, text: `${error.message}\n` };
    throw error;
  }
  const guildId = parts.discord.guildId;
  const { sandbox } = parts;
  switch (request.kind) {
    case 'command':
      return sendCommand(parts, request);
    case 'vote': {
      if (request.site) return sendListVote(parts, request.site, request.member, request.double, request.shown);
      // As on Guilds: the service has the vote before its webhook goes out (the bot asks it back).
      sandbox.setVote(request.member.id, VOTE_MS);
      const voter = request.member;
      const names = { username: voter.name.toLowerCase(), global_name: voter.name };
      const event = voteEvent(guildId, voter.id, request.double, true, names);
      return sendDelivery(parts, voter, event, request.shown);
    }
    case 'review': {
      reviews += 1;
      const id = `rev_play${String(reviews).padStart(4, '0')}`;
      const { rating, content } = request;
      const authorId = request.member.id;
      sandbox.setReview({ id, rating, content, likes: 0, replies: 0, created_at: new Date().toISOString(), authorId });
      const event = reviewEvent(guildId, { id, authorId, content, rating });
      return sendDelivery(parts, request.member, event, request.shown);
    }
  }
}
