/** A Discord id: user, guild, channel and role ids all have this form. */
export const SNOWFLAKE = /^\d{17,20}$/;

export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && SNOWFLAKE.test(value);
}
