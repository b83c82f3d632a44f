/**
 * Lengths of time in milliseconds and in seconds, written once: `2 * HOUR_MS`, `24 * HOUR_SECONDS`. Every
 * duration of the server and the web app is a multiple of one of these, not a number written out again.
 */

/** A second, in milliseconds. */
export const SECOND_MS = 1_000;
/** A minute, in milliseconds. */
export const MINUTE_MS = 60 * SECOND_MS;
/** An hour, in milliseconds. */
export const HOUR_MS = 60 * MINUTE_MS;
/** A day (24 hours), in milliseconds. */
export const DAY_MS = 24 * HOUR_MS;

/** A minute, in seconds. */
export const MINUTE_SECONDS = 60;
/** An hour, in seconds. */
export const HOUR_SECONDS = 60 * MINUTE_SECONDS;
/** A day (24 hours), in seconds. */
export const DAY_SECONDS = 24 * HOUR_SECONDS;
