import { describe, expect, it } from '@jest/globals';
import { ingestResult, type IngestStep } from '../../../bench/scale/ingest.js';

const step = (rate: number, p99: number, accepted = rate * 2): IngestStep => ({
  rate,
  sent: rate * 2,
  accepted,
  achieved: accepted / 2,
  p99,
});

describe("the scale bench's ingest figure", () => {
  it('is the achieved rate of the highest step with every delivery accepted and p99 under the goal', () => {
    const result = ingestResult([step(100, 12), step(250, 30), step(500, 70), step(1000, 20, 1900)], 50);
    // The first step that failed is where the ladder says it stopped.
    expect(result).toEqual({ rate: 250, p99: 30, accepted: 200 + 500 + 1000 + 1900, failedAt: step(500, 70) });
  });

  it('is 0 when no step passed, with the votes still counted for the drain', () => {
    const result = ingestResult([step(100, 60), step(250, 80)], 50);
    expect(result.rate).toBe(0);
    expect(result.accepted).toBe(700);
    expect(result.failedAt?.rate).toBe(100);
  });
});
