import { z } from 'zod';

const snowflake = z.string().regex(/^\d{17,20}$/);

// Guilds documents these fields (docs.guilds.me v1); anything else it sends is ignored.
const voteSchema = z.object({
  event: z.literal('vote'),
  guildId: z.string(),
  double: z.boolean().optional().default(false),
  user: z.object({
    id: snowflake,
    discord: z.boolean().optional(),
    global_name: z.string().nullish(),
    username: z.string().nullish(),
  }),
});

const reviewSchema = z.object({
  event: z.literal('review'),
  guildId: z.string(),
  id: z.string().min(1).max(80),
  authorId: snowflake,
  content: z.string().default(''),
  rating: z.number().min(0).max(5),
});

// A reply's other fields are undocumented: the review id is looked for under the likely names, and
// the reply's own id is trusted only when the review is known.
const replySchema = z
  .object({
    event: z.literal('reply'),
    guildId: z.string(),
    authorId: z.string().nullable().optional(),
    reviewId: z.string().optional(),
    review_id: z.string().optional(),
    review: z.object({ id: z.string() }).partial().optional(),
    id: z.string().optional(),
  })
  .transform((reply): ReplyEvent => {
    const reviewId = reply.reviewId ?? reply.review_id ?? reply.review?.id;
    return {
      event: 'reply',
      guildId: reply.guildId,
      authorId: reply.authorId ?? null,
      reviewId,
      replyId: reviewId === undefined ? undefined : reply.id,
    };
  });

const eventSchema = z.discriminatedUnion('event', [voteSchema, reviewSchema, replySchema]);

export type VoteEvent = z.output<typeof voteSchema>;
export type ReviewEvent = z.output<typeof reviewSchema>;
export interface ReplyEvent {
  event: 'reply';
  guildId: string;
  authorId: string | null;
  /** Which review was answered, when the delivery says. */
  reviewId: string | undefined;
  replyId: string | undefined;
}
export type GuildsEvent = z.output<typeof eventSchema>;

/** `unknownKind`: the body names no event the bot acts on (as opposed to a known kind with a bad field). */
export type ReadEvent = { ok: true; event: GuildsEvent } | { ok: false; problem: string; unknownKind: boolean };

/** A delivery's body as an event the bot acts on, or why not. */
export function readEvent(body: unknown): ReadEvent {
  const parsed = eventSchema.safeParse(body);
  if (parsed.success) return { ok: true, event: parsed.data };
  const kind = (body as { event?: unknown } | null)?.event ?? null;
  const issue = parsed.error.issues[0];
  // The union names no event it knows: a kind Guilds added, or no kind at all.
  if (issue?.code === 'invalid_union' && issue.path.join('.') === 'event')
    return { ok: false, problem: `unknown event type ${JSON.stringify(kind)}`, unknownKind: true };
  return {
    ok: false,
    problem: `${String(kind)} event: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`,
    unknownKind: false,
  };
}
