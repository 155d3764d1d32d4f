// Guilds (docs.guilds.me/v1/api/webhooks): Authorization equals the webhook token shown on the
// server's webhooks page (the bot keeps it, the admin pastes it); the vote's end comes from the API.
// Its deliveries keep going through src/api/webhook-payloads.ts: this entry only describes the site.
import { HOUR_MS, type SiteFacts } from './site.js';

export const guilds: SiteFacts<'guilds'> = {
  id: 'guilds',
  name: 'Guilds',
  secretFrom: 'bot',
  auth: 'authorization-equals',
  voteLength: 'payload',
  dedupeWindowMs: HOUR_MS,
  // A vote event is single or `double` (docs.guilds.me/v1/api/webhooks): it counts 1 or 2.
  weights: { min: 1, max: 2 },
  replyApi: true,
  sendsTests: false,
};
