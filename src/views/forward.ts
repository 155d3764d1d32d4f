import type { ForwardDestinationRecord, ForwardResult } from '../store/index.js';
import { messageView, type MessageView } from './message.js';
import { EmbedBuilder } from './embed-builder.js';
import { ToneColour } from './theme.js';
import { relativeTime } from './format.js';
import { inlineCode } from '../core/discord-text.js';
import type { Translator } from '../i18n/index.js';

/** A destination as /setup forward and the dashboard show it; `secret` is whole only the once it is made. */
export type ShownDestination = Pick<
  ForwardDestinationRecord,
  'url' | 'secretEnd' | 'fromEnvironment' | 'lastAt' | 'lastResult' | 'failingSince' | 'waiting'
> & { wholeSecret?: string };

/** Why a send failed or was not made, in words. */
function problemText(result: Exclude<ForwardResult, { outcome: 'delivered' }>, { t }: Translator): string {
  if (result.outcome === 'refused') return t(`setup.forward.problem.${result.reason}`);
  if (result.outcome === 'retrying' && result.reason) return t(`setup.forward.problem.${result.reason}`);
  return t('setup.forward.problem.status', { status: result.status ?? 0 });
}

/** "delivered (200) 2 minutes ago", "failing since …: answered 503", or "nothing sent yet". */
export function forwardResultText(destination: ShownDestination, i18n: Translator): string {
  const { t } = i18n;
  const { lastResult: result, lastAt } = destination;
  if (result === null || lastAt === null) return t('setup.forward.result.never');
  const when = relativeTime(new Date(lastAt));
  if (result.outcome === 'delivered') return t('setup.forward.result.delivered', { status: result.status, when });
  const problem = problemText(result, i18n);
  if (result.outcome === 'gaveUp') return t('setup.forward.result.gaveUp', { problem, when });
  const since = relativeTime(new Date(destination.failingSince ?? lastAt));
  return t('setup.forward.result.failing', { problem, when, since });
}

/** Whether the destination's last send went through (or none was made yet). */
export const forwardHealthy = (destination: ShownDestination): boolean =>
  destination.lastResult === null || destination.lastResult.outcome === 'delivered';

function secretText(destination: ShownDestination, { t }: Translator): string {
  if (destination.fromEnvironment) return t('setup.forward.fromEnvironment');
  if (destination.wholeSecret !== undefined)
    return t('setup.forward.secretWhole', { secret: inlineCode(destination.wholeSecret) });
  return t('setup.forward.secretEnd', { last4: destination.secretEnd });
}

/** One destination's lines: its secret, its last result, and what waits for it. */
function destinationLines(destination: ShownDestination, i18n: Translator): string {
  const { t } = i18n;
  return [
    secretText(destination, i18n),
    forwardResultText(destination, i18n),
    ...(destination.waiting > 0 ? [t('setup.forward.waiting', { count: destination.waiting })] : []),
  ].join('\n');
}

/** `/setup forward add` and `list`: each destination, and how a receiver checks what it gets. */
export function forwardsView(destinations: readonly ShownDestination[], i18n: Translator): MessageView {
  const { t } = i18n;
  const embed = new EmbedBuilder()
    .setColor(destinations.every(forwardHealthy) ? ToneColour.info : ToneColour.warning)
    .setTitle(t('setup.forward.title'))
    .setDescription(
      destinations.length === 0
        ? t('setup.forward.none', { command: '`/setup forward add`' })
        : t('setup.forward.verify'),
    );
  for (const destination of destinations)
    embed.addFields({ name: destination.url.slice(0, 256), value: destinationLines(destination, i18n) });
  return messageView(embed);
}

/** `/setup forward test`: how each destination answered the test delivery. */
export function forwardTestView(tested: ReadonlyArray<{ url: string; result: string; ok: boolean }>, i18n: Translator) {
  const { t } = i18n;
  const embed = new EmbedBuilder()
    .setColor(tested.every((line) => line.ok) ? ToneColour.success : ToneColour.warning)
    .setTitle(t('setup.forward.testTitle'))
    .setDescription(
      tested.length === 0
        ? t('setup.forward.none', { command: '`/setup forward add`' })
        : tested.map((line) => `${line.ok ? '✔' : '✘'} ${inlineCode(line.url)}: ${line.result}`).join('\n'),
    );
  return messageView(embed);
}
