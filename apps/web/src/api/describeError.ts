import { DialError, isDialError } from '@dial/core';

/** The catalogue error for anything thrown: DialErrors as they are, anything else `internal_error`. */
export function toDialError(error: unknown): DialError {
  return isDialError(error) ? error : new DialError('internal_error', { cause: error });
}

/**
 * The sentence to show a person for an error: the catalogue's message, plus the wait when the server said
 * how long it is (429 with Retry-After).
 */
export function describeError(error: unknown): string {
  const dialError = toDialError(error);
  const wait = dialError.retryAfterSeconds;
  if (wait === undefined || wait <= 0) return dialError.message;
  return `${dialError.message} You can try again in ${formatWait(wait)}.`;
}

/** "1 second", "45 seconds", "2 minutes" (rounded up), "1 hour". */
export function formatWait(seconds: number): string {
  if (seconds < 60) return plural(Math.ceil(seconds), 'second');
  if (seconds < 3600) return plural(Math.ceil(seconds / 60), 'minute');
  return plural(Math.ceil(seconds / 3600), 'hour');
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
