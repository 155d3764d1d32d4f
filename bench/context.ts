import type { Sandbox } from '../src/sandbox/types.js';
import type { DiscordStandIn } from '../tools/discord-standin/index.js';
import type { BotKind } from './bots.js';

/** Figures a scenario measured for one bot, by figure id (see table.ts). */
export type Figures = Record<string, number>;

export interface BenchContext {
  discord: DiscordStandIn;
  sandbox: Sandbox;
  /** A progress line on stdout. */
  progress(line: string): void;
  /** A line for the notes under the table. */
  note(line: string): void;
  /** CPU use (as a share of one core) during one bot run. */
  cpuLog(line: string): void;
  /** The most CPU other processes on the machine used during one bot run since the last reset, in cores. */
  othersPeak: number;
  /** `--servers N`: the scale scenario's server count, when not its default. */
  scaleServers?: number;
}

export type Scenario = (ctx: BenchContext, kind: BotKind) => Promise<Figures>;

export const label = (kind: BotKind): string => (kind === 'ours' ? 'our bot' : 'baseline');
