import { InteractionResponseType, InteractionType, SnowflakeUtil, type Client } from 'discord.js';
import type { InlineAnswer, InlineCallbacks, InlineInteraction } from '../bot/inline-callbacks.js';

interface InteractionAction {
  handle(data: unknown): unknown;
}

/**
 * Hands an interaction that came over HTTP to `client` as if the gateway had dispatched it:
 * discord.js's own action builds the same Interaction object and emits interactionCreate, so the
 * router and handlers are the gateway's. Resolves with the answer for the HTTP response. Until
 * `ready` (the servers' contexts made), an interaction waits; its deadline runs from its arrival.
 */
export function deliverTo(client: Client, inline: InlineCallbacks, ready: Promise<void> = Promise.resolve()) {
  const action = (client as unknown as { actions: { InteractionCreate: InteractionAction } }).actions.InteractionCreate;
  return async (payload: Record<string, unknown>): Promise<InlineAnswer> => {
    // The bot offers no autocomplete (the router skips it): an empty list, at once.
    if (payload.type === InteractionType.ApplicationCommandAutocomplete) return NO_CHOICES;
    const interaction = inlineInteraction(payload);
    // The same signed request again within its 5 minutes (a replay): its handler runs once.
    if (inline.claims(interaction.id)) return ALREADY_ANSWERING;
    const answer = inline.answer(interaction);
    await ready;
    action.handle(payload);
    return answer;
  };
}

function inlineInteraction(payload: Record<string, unknown>): InlineInteraction {
  const id = String(payload.id);
  return {
    id,
    applicationId: String(payload.application_id),
    token: String(payload.token),
    createdAt: /^\d{17,20}$/.test(id) ? SnowflakeUtil.timestampFrom(id) : Date.now(),
    fallback: fallbackFor(payload),
  };
}

const NO_CHOICES: InlineAnswer = {
  body: Buffer.from(
    JSON.stringify({ type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices: [] } }),
  ),
  contentType: 'application/json',
};

const ALREADY_ANSWERING: InlineAnswer = {
  status: 409,
  body: Buffer.from('this interaction is already being answered'),
  contentType: 'text/plain; charset=utf-8',
};

/** The deferral an interaction takes: a component's (or a form's on a message) leaves its message as it is. */
function fallbackFor(payload: Record<string, unknown>): InlineInteraction['fallback'] {
  const onMessage =
    payload.type === InteractionType.MessageComponent ||
    (payload.type === InteractionType.ModalSubmit && payload.message !== undefined);
  return {
    type: onMessage
      ? InteractionResponseType.DeferredMessageUpdate
      : InteractionResponseType.DeferredChannelMessageWithSource,
  };
}
