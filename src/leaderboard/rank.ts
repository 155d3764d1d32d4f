export interface VoterCount {
  userId: string;
  votes: number;
}

export interface Ranked extends VoterCount {
  /** Competition ranking: members with as many votes share a rank, and the next rank skips (1, 2, 2, 4). */
  rank: number;
}

/** Most votes first; ties share a rank and are listed by user id, so pages are stable. */
export function rankVoters(counts: readonly VoterCount[]): Ranked[] {
  const ordered = [...counts].sort((a, b) => b.votes - a.votes || (a.userId < b.userId ? -1 : 1));
  let rank = 0;
  return ordered.map((entry, index) => {
    if (index === 0 || entry.votes !== ordered[index - 1]!.votes) rank = index + 1;
    return { ...entry, rank };
  });
}
