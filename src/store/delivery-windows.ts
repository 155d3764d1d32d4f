import type { DeliveryOutcome, DeliveryRecord } from './root-types.js';

/**
 * The delivery log's two windows, each kept to the same number of lines per server: refusals (a
 * wrong token or signature, a body that could not be read, another server's id), and the rest, which
 * only a sender holding the server's secret can cause (stored, duplicate, ignored, not stored in
 * time). Anyone who finds an address can send refusals: in one window with the rest, a dozen of them
 * pushed every accepted delivery out of what an admin sees.
 */
const REFUSED_OUTCOMES = [
  'wrong_token',
  'wrong_secret',
  'stale_signature',
  'malformed',
  'wrong_server',
] as const satisfies DeliveryOutcome[];

const REFUSED: ReadonlySet<DeliveryOutcome> = new Set(REFUSED_OUTCOMES);

export const isRefusedOutcome = (outcome: DeliveryOutcome): boolean => REFUSED.has(outcome);

/** SQL that is true for a refusal's row: the outcomes are constants of this file, so written in as they are. */
export const REFUSED_ROW = `outcome IN (${REFUSED_OUTCOMES.map((outcome) => `'${outcome}'`).join(', ')})`;

/** The newest `keep` lines of each window from `lines` (newest first), newest first. */
export function newestOfEachWindow(lines: readonly DeliveryRecord[], keep: number): DeliveryRecord[] {
  const sorted = [...lines].sort((a, b) => b.at - a.at);
  let refused = 0;
  let accepted = 0;
  return sorted.filter((line) => (isRefusedOutcome(line.outcome) ? ++refused : ++accepted) <= keep);
}
