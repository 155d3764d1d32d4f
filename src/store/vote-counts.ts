import { monthKey, monthOf, monthRange } from '../leaderboard/month.js';
import type { MirrorStore, SiteBreakdownStore } from './ports.js';
import { GUILDS_SITE, type CountMark, type VoteSite } from './types.js';

// The one rule for a server's vote counts, wherever one is shown (announcements, /votes, and what
// reads them); docs/lists.md, "How votes are counted", says it for admins.
// - Guilds: the service's own figure as last polled, plus the Guilds votes the bot recorded after
//   that poll; a figure read from the service just now counts when it is higher.
// - Every other list: the votes the bot recorded from it (a weekend double counting as two).
// - The server: the sum over its lists.
// Nothing shown goes down while no vote is removed: Guilds' figure can lag behind the votes it
// delivered (a poll then reads less than the bot had counted), so the highest Guilds counts shown are
// kept in the store (CountMark) and a count is never shown below them. Polls stay as cheap as they were.

interface ListCount {
  site: VoteSite;
  /** Undefined for Guilds before its first poll: the bot does not know the votes cast before it came. */
  allTime: number | undefined;
  /** This calendar month (UTC). */
  thisMonth: number;
}

export interface VoteCounts {
  /** Guilds first, then every other list the bot recorded a vote from. */
  lists: ListCount[];
  /** Undefined until Guilds was polled. */
  allTime: number | undefined;
  thisMonth: number;
}

/** Guilds' figures as the service gave them just now (the /votes list). */
export interface ServiceFigures {
  totalVotes: number;
  monthlyVotes: number;
}

export type CountsStore = Pick<SiteBreakdownStore, 'votesBySite'> &
  Pick<MirrorStore, 'mirrorTotals' | 'countMark' | 'setCountMark'>;

const monthAt = (at: number) => monthKey(monthOf(new Date(at)));

/** The counts at `at` by the rule above; `read`: Guilds' figures just read from the service. */
export async function voteCounts(store: CountsStore, at: number, read?: ServiceFigures): Promise<VoteCounts> {
  const { from: monthStart } = monthRange(monthOf(new Date(at)));
  const [polled, mark] = await Promise.all([store.mirrorTotals(), store.countMark()]);
  const [ever, month, sincePoll] = await Promise.all([
    store.votesBySite(0, at + 1),
    store.votesBySite(monthStart, at + 1),
    // A poll's own finds are recorded at its moment, and its figure holds them: after it, not at it.
    polled ? store.votesBySite(polled.polledAt + 1, at + 1) : Promise.resolve(undefined),
  ]);
  const recorded = sincePoll?.[GUILDS_SITE] ?? 0;
  const guildsMonth =
    polled && monthAt(polled.polledAt) === monthAt(at) ? polled.monthlyVotes + recorded : (month[GUILDS_SITE] ?? 0);
  const guilds = await notBelowShown(store, at, mark, {
    site: GUILDS_SITE,
    allTime: highest(read?.totalVotes, polled && polled.totalVotes + recorded),
    thisMonth: highest(read?.monthlyVotes, guildsMonth) ?? 0,
  });
  const others = Object.keys(ever)
    .filter((site) => site !== GUILDS_SITE)
    .sort()
    .map((site) => ({ site, allTime: ever[site] ?? 0, thisMonth: month[site] ?? 0 }));
  const lists = [guilds, ...others];
  return {
    lists,
    allTime: guilds.allTime === undefined ? undefined : lists.reduce((sum, list) => sum + (list.allTime ?? 0), 0),
    thisMonth: lists.reduce((sum, list) => sum + list.thisMonth, 0),
  };
}

/** Guilds' counts raised to the highest shown before (this month's in the same month), and the mark raised to them. */
async function notBelowShown(
  store: CountsStore,
  at: number,
  mark: CountMark | undefined,
  counted: ListCount,
): Promise<ListCount> {
  const thisMonth = monthAt(at);
  const sameMark = mark?.month === thisMonth;
  const shown: ListCount = {
    site: counted.site,
    allTime: highest(counted.allTime, mark?.allTime),
    thisMonth: Math.max(counted.thisMonth, sameMark ? mark.thisMonth : 0),
  };
  if (
    shown.allTime !== undefined &&
    (shown.allTime !== mark?.allTime || shown.thisMonth !== mark.thisMonth || !sameMark)
  )
    await store.setCountMark({
      allTime: shown.allTime,
      thisMonth: shown.thisMonth,
      month: thisMonth,
    } satisfies CountMark);
  return shown;
}

function highest(...figures: Array<number | undefined>): number | undefined {
  const known = figures.filter((figure): figure is number => figure !== undefined);
  return known.length === 0 ? undefined : Math.max(...known);
}
