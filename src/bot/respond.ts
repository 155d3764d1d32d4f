import {
  MessageFlags,
  type ChatInputCommandInteraction,
  type MessageComponentInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import { settleWithin } from '../work/settle-within.js';
import { replyPlain, type ReplyPayload } from './reply-fast.js';
import { DEFER_AFTER_MS } from './answer-deadlines.js';

export type { ReplyPayload };

export { DEFER_AFTER_MS };

/**
 * How long an answer may still take before the bot defers, counted from the interaction's creation
 * (its id's timestamp), so one that waited in a busy event loop or a slow gateway still defers in
 * time. A clock behind Discord's gives a negative age: then it counts from now, as it did without.
 */
export function deferDelay(createdTimestamp: number, now: number = Date.now()): number {
  return Math.max(0, DEFER_AFTER_MS - Math.max(0, now - createdTimestamp));
}

/**
 * Answers with `work`'s payload directly when it is ready before deferDelay runs out, otherwise
 * defers first and edits the answer in when it arrives, so the 3 s window is never missed.
 */
export async function replyInTime(
  interaction: ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction,
  work: Promise<ReplyPayload>,
  { ephemeral }: { ephemeral: boolean },
): Promise<void> {
  const flags = ephemeral ? MessageFlags.Ephemeral : undefined;
  const payload = await raceDeadline(work, interaction.createdTimestamp);
  if (payload !== TOO_SLOW) {
    await replyPlain(interaction, payload, flags);
    return;
  }
  await interaction.deferReply({ flags });
  await interaction.editReply(await work);
}

/** Like replyInTime, but replaces the message the component sits on. */
export async function updateInTime(
  interaction: MessageComponentInteraction | ModalSubmitInteraction,
  work: Promise<ReplyPayload>,
): Promise<void> {
  const payload = await raceDeadline(work, interaction.createdTimestamp);
  if (payload !== TOO_SLOW) {
    await updateMessage(interaction, payload);
    return;
  }
  await interaction.deferUpdate();
  deferredAsUpdate.add(interaction);
  await interaction.editReply(await work);
}

const deferredAsUpdate = new WeakSet<object>();

/** discord.js does not tell a deferred update from a deferred reply; errors need to know. */
export function wasDeferredAsUpdate(interaction: object): boolean {
  return deferredAsUpdate.has(interaction);
}

function updateMessage(interaction: MessageComponentInteraction | ModalSubmitInteraction, payload: ReplyPayload) {
  if (interaction.isModalSubmit()) {
    if (!interaction.isFromMessage()) throw new Error('A modal that did not come from a message cannot update one');
    return interaction.update(payload);
  }
  return interaction.update(payload);
}

const TOO_SLOW = Symbol('too slow');

const tooSlow = (): typeof TOO_SLOW => TOO_SLOW;

/** `work`'s outcome, or TOO_SLOW once deferDelay passes first; one promise and one timer per answer. */
function raceDeadline<T>(work: Promise<T>, createdTimestamp: number): Promise<T | typeof TOO_SLOW> {
  return settleWithin(work, deferDelay(createdTimestamp), tooSlow);
}
