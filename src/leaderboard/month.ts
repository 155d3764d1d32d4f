/** A calendar month in UTC, as the leaderboard counts votes. */
export interface Month {
  year: number;
  /** 1 to 12. */
  month: number;
}

/** `2026-11` → { year: 2026, month: 11 }; null for anything else, or a month before 2000. */
export function parseMonth(text: string): Month | null {
  const match = /^\s*(\d{4})-(\d{1,2})\s*$/.exec(text);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  return year >= 2000 && month >= 1 && month <= 12 ? { year, month } : null;
}

export function monthOf(at: Date): Month {
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1 };
}

/** `2026-11`, as custom ids and the month option write it. */
export function monthKey({ year, month }: Month): string {
  return `${year}-${String(month).padStart(2, '0')}`;
}

/** The month as [from, to) in epoch ms, UTC. */
export function monthRange({ year, month }: Month): { from: number; to: number } {
  return { from: Date.UTC(year, month - 1, 1), to: Date.UTC(year, month, 1) };
}
