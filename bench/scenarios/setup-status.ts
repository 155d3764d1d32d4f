import { english, type MessageKey } from '../../src/i18n/index.js';
import type { ServerSettingsRecord } from '../../src/store/index.js';
import { textOf } from '../../tools/conversation.js';
import {
  member,
  MODERATOR_PERMISSIONS,
  OptionType,
  slashCommand,
  textChannelIdFor,
  voterRoleIdFor,
  type DiscordStandIn,
  type Message,
} from '../../tools/discord-standin/index.js';
import type { BenchBot } from '../bots.js';
import type { Figures } from '../context.js';
import { ackLatencies, drive, percentiles, type Run } from '../load.js';

export const SETUP_STATUS = { sequential: 50, burst: 20, waitMs: 10_000 } as const;

/** Every channel /setup sets on the server's one text channel, and its Voter role (below the bot's). */
export function fullySetUp(guildId: string): ServerSettingsRecord {
  const channel = textChannelIdFor(guildId);
  return {
    reviewChannelId: channel,
    voteChannelId: channel,
    auditChannelId: channel,
    reminderChannelId: channel,
    voterRoleId: voterRoleIdFor(guildId),
  };
}

/**
 * The status lines a fully set-up server must show passed; the commands and webhook lines fail on
 * the stand-in (deploy-commands never ran, no webhook configured), which costs the same time.
 */
function showsSetUp(message: Message): boolean {
  const lines = textOf(message).split('\n');
  // A channel or role that is off passes too: its line must name it.
  const passed = (key: MessageKey, shown = '') =>
    lines.some((line) => line.startsWith(`✔ **${english.t(key)}**: ${shown}`));
  const channels = (['review', 'votes', 'audit', 'reminders'] as const).every((kind) =>
    passed(`setup.kind.${kind}`, '<#'),
  );
  return passed('setup.status.credentials') && channels && passed('setup.status.voterRole', '<@&');
}

export interface SetupStatusFigures {
  figures: Figures;
  /** One line per run for progress and notes. */
  lines: string[];
}

/**
 * `/setup status` from a member with Manage Server in `guildId`, first one after another, then all at
 * once, the service sandbox at its normal speed. Two stand-in stamps per interaction: dispatched →
 * the deferral (the first callback), and dispatched → the edit of @original that shows the status lines.
 */
export async function timeSetupStatus(
  discord: DiscordStandIn,
  bot: BenchBot,
  guildId: string,
): Promise<SetupStatusFigures> {
  const payload = () =>
    slashCommand({
      name: 'setup',
      guildId,
      member: member({ permissions: MODERATOR_PERMISSIONS }),
      options: [{ name: 'status', type: OptionType.Subcommand }],
    });
  const common = { payload, waitMs: SETUP_STATUS.waitMs, until: 'answer' as const, expected: showsSetUp };
  const runs: Array<[string, string, Run]> = [
    [
      'sequential',
      `${SETUP_STATUS.sequential} one after another`,
      await drive(discord, bot, { ...common, count: SETUP_STATUS.sequential, concurrency: 1 }),
    ],
    [
      'burst',
      `${SETUP_STATUS.burst} at once`,
      await drive(discord, bot, { ...common, count: SETUP_STATUS.burst, rate: Infinity }),
    ],
  ];
  const figures: Figures = {};
  const lines: string[] = [];
  for (const [id, what, run] of runs) {
    const [ackP50, ackP99] = percentiles(ackLatencies(run.samples), [50, 99]);
    const shown = run.samples.map((s) => (s.answeredAt === undefined ? Infinity : s.answeredAt - s.sentAt));
    const [shownP50, shownP99] = percentiles(shown, [50, 99]);
    const expected = run.samples.filter((s) => s.answer === 'expected').length;
    const other = run.samples.filter((s) => s.answer === 'other').length;
    Object.assign(figures, {
      [`setupStatus.${id}.ack.p50`]: ackP50,
      [`setupStatus.${id}.ack.p99`]: ackP99,
      [`setupStatus.${id}.shown.p50`]: shownP50,
      [`setupStatus.${id}.shown.p99`]: shownP99,
      [`setupStatus.${id}.setUp`]: expected,
    });
    lines.push(
      `/setup status, ${what}: deferral p50 ${ackP50!.toFixed(1)} p99 ${ackP99!.toFixed(1)} ms; status lines shown p50 ${shownP50!.toFixed(1)} p99 ${shownP99!.toFixed(1)} ms; ${expected} of ${run.samples.length} showed the server set up, ${other} something else, ${run.samples.length - expected - other} nothing within ${SETUP_STATUS.waitMs / 1000} s`,
    );
  }
  return { figures, lines };
}
