/** One colour per tone, taken from Discord's own palette so embeds sit naturally in the client. */
export type Tone = 'error' | 'warning' | 'info' | 'success';

export const ToneColour: Readonly<Record<Tone, number>> = {
  error: 0xed4245,
  warning: 0xfee75c,
  info: 0x5865f2,
  success: 0x57f287,
};
