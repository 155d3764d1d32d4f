/** Discord's epoch (2015-01-01T00:00:00Z) in milliseconds. */
const DISCORD_EPOCH = 1420070400000n;
const WORKER_AND_PROCESS = 1n << 17n;

let lastMs = 0n;
let increment = 0n;

/**
 * A new snowflake, strictly greater than every one this process made before: 18–19 digits today,
 * shaped like Discord's (timestamp << 22 | worker | process | increment).
 */
export function nextSnowflake(): string {
  let ms = BigInt(Date.now()) - DISCORD_EPOCH;
  if (ms <= lastMs) {
    increment += 1n;
    if (increment > 4095n) {
      lastMs += 1n;
      increment = 0n;
    }
    ms = lastMs;
  } else {
    lastMs = ms;
    increment = 0n;
  }
  return ((ms << 22n) | WORKER_AND_PROCESS | increment).toString();
}

/** A fixed snowflake for a given date, for ids that must be the same in every run. */
export function snowflakeAt(isoDate: string, increment = 0): string {
  const ms = BigInt(Date.parse(isoDate)) - DISCORD_EPOCH;
  return ((ms << 22n) | WORKER_AND_PROCESS | BigInt(increment)).toString();
}

export function timestampOf(snowflake: string): number {
  return Number((BigInt(snowflake) >> 22n) + DISCORD_EPOCH);
}
