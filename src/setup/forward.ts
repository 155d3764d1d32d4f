import type { Actor } from '../bot/actor.js';
import { UserFacingError } from '../bot/user-error.js';
import { FORWARD_DESTINATIONS_MAX, forwardUrlProblem } from '../core/forward-url.js';
import { sendTestDelivery } from '../forwarding/test-delivery.js';
import type { BaseContext } from '../runtime/context.js';
import type { ForwardDestinationRecord } from '../store/index.js';
import { forwardResultText, forwardsView, forwardTestView, type ShownDestination } from '../views/forward.js';
import type { MessageView } from '../views/message.js';
import { changed, changeResult, type ChangeResult, type ChangeTarget } from './change.js';
import { sealing } from './manage-server.js';
import type { SetupCall } from './steps.js';

const REFUSALS = {
  invalid: 'refusal.forwardUrlInvalid',
  notHttps: 'refusal.forwardUrlNotHttps',
  credentials: 'refusal.forwardUrlCredentials',
} as const;

/** The URL as typed, checked by the one rule FORWARD_URLS is checked by. */
function urlOf(ctx: BaseContext, text: string): string {
  const url = text.trim();
  const problem = forwardUrlProblem(url, ctx.config.forward.allowPrivate);
  if (problem) throw new UserFacingError(REFUSALS[problem]);
  return url;
}

/** With FORWARD_URLS (one server), the host's .env holds the destinations: /setup changes none. */
function notFromEnvironment(ctx: BaseContext): void {
  if (ctx.servers.mode === 'single')
    throw new UserFacingError('refusal.setByEnvironment', { variable: 'FORWARD_URLS' });
}

export interface ForwardAddInput {
  forwardUrl: string;
  forwardRotate?: boolean;
}

/**
 * `/setup forward add url: [rotate:]`: a destination with a secret made now and shown whole this once;
 * one already there is shown by its secret's end unless `rotate:true` asks for a new secret.
 */
export async function applyForwardAdd(
  ctx: BaseContext,
  target: ChangeTarget,
  input: ForwardAddInput,
  actor: Actor,
): Promise<ShownDestination> {
  notFromEnvironment(ctx);
  const { guildId } = target;
  const url = urlOf(ctx, input.forwardUrl);
  const destinations = await ctx.servers.forwards.of(guildId);
  const existing = destinations.find((destination) => destination.url === url);
  if (existing && !input.forwardRotate) return existing;
  if (!existing && destinations.length >= FORWARD_DESTINATIONS_MAX)
    throw new UserFacingError('refusal.forwardTooMany', {
      max: FORWARD_DESTINATIONS_MAX,
      command: '`/setup forward remove`',
    });
  if (!ctx.config.secrets) throw new UserFacingError('refusal.secretsKeyMissing');
  const made = await sealing(() => ctx.setup.changes.forwards.make(guildId, url, existing));
  const rotate = existing !== undefined;
  ctx.logger.info(
    { guildId, userId: actor.userId, destinationId: made.destination.id, rotate },
    'forwarding destination secret made with /setup',
  );
  const last4 = made.destination.secretEnd;
  await changed(
    ctx,
    target,
    actor,
    changeResult('setup.forward.saved', () => ({ url, last4 })),
  );
  return { ...made.destination, wholeSecret: made.secret };
}

export async function forwardAddAnswer(
  ctx: BaseContext,
  input: ForwardAddInput,
  call: SetupCall,
): Promise<MessageView> {
  return forwardsView([await applyForwardAdd(ctx, call.target, input, call.actor)], call.i18n);
}

/** `/setup forward remove url:`: the destination and the deliveries waiting for it go. */
export async function applyForwardRemove(
  ctx: BaseContext,
  target: ChangeTarget,
  input: { forwardUrl: string },
  actor: Actor,
): Promise<ChangeResult> {
  notFromEnvironment(ctx);
  const { guildId } = target;
  const url = input.forwardUrl.trim();
  const found = (await ctx.servers.forwards.of(guildId)).find((destination) => destination.url === url);
  const vars = () => ({ url, command: '`/setup forward list`' });
  if (!found || !(await ctx.setup.changes.forwards.remove(guildId, found.id)))
    return changed(ctx, target, actor, changeResult('setup.forward.notFound', vars, 'info'));
  ctx.logger.info({ guildId, userId: actor.userId, destinationId: found.id }, 'forwarding destination removed');
  return changed(ctx, target, actor, changeResult('setup.forward.removed', vars));
}

/** `/setup forward list` */
export async function forwardListAnswer(ctx: BaseContext, { target, i18n }: SetupCall): Promise<MessageView> {
  return forwardsView(await ctx.servers.forwards.of(target.guildId), i18n);
}

/** `/setup forward test [url:]`: a signed `webhook.test` to each destination (or the one named), and each answer. */
export async function forwardTestAnswer(
  ctx: BaseContext,
  input: { forwardUrl?: string | undefined },
  { target, i18n }: SetupCall,
): Promise<MessageView> {
  const { guildId } = target;
  const all = await ctx.servers.forwards.of(guildId);
  const url = input.forwardUrl?.trim();
  const chosen = url === undefined ? all : all.filter((d) => d.url === url);
  // A mistyped address is said as such, not as "no destinations yet".
  if (url !== undefined && chosen.length === 0 && all.length > 0)
    throw new UserFacingError('setup.forward.notFound', { url, command: '`/setup forward list`' });
  const tested = await Promise.all(chosen.map((destination) => testOne(ctx, destination)));
  ctx.logger.info({ guildId, destinations: tested.length }, 'forwarding test sent with /setup');
  return forwardTestView(
    tested.map(({ destination, shown }) => ({
      url: destination.url,
      result: forwardResultText(shown, i18n),
      ok: shown.lastResult?.outcome === 'delivered',
    })),
    i18n,
  );
}

async function testOne(ctx: BaseContext, destination: ForwardDestinationRecord) {
  const at = Date.now();
  const secret = ctx.servers.forwards.secretOf(destination);
  const { result } =
    secret === undefined
      ? { result: { outcome: 'refused', reason: 'secret' } as const }
      : await sendTestDelivery({ guildId: destination.guildId, url: destination.url, secret }, ctx.config.forward, at);
  return { destination, shown: { ...destination, lastResult: result, lastAt: at, failingSince: at } };
}
