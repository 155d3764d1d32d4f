import type { Request } from './attempts.js';

/** A vote (or test, or review) for a sender to deliver as a list would. */
export interface SenderVote {
  guildId: string;
  memberId: string;
  memberName?: string;
  /** Send the site's test delivery instead of a vote. */
  test?: boolean;
  /** Send a review (discordlist.space only). */
  review?: { content: string; rating?: number };
  /** How long the vote runs, where the list sends it (Top.gg's expires_at, Discollab's vote_again). */
  lengthMs?: number;
  /** Top.gg's weight (2 on weekends). */
  weight?: number;
  /** The sender's clock (ms); now by default. */
  now?: number;
  /**
   * The site's own id for this vote (Top.gg v1's `data.id`), made once per vote by sendAs so that
   * every retry carries the same one, as the site's do; one is made per request when unset.
   */
  siteEventId?: string;
}

/** One site's way of turning a vote into a request, and of retrying it. */
export interface SiteSender {
  build(url: string, secret: string, vote: SenderVote, now: number): Request;
}
