import { describe, expect, it } from 'vitest';
import { RATE_LIMITS, type RateLimits } from '../src/config/rateLimits.js';
import { sweepExpiredRows } from '../src/db/sweepExpiredRows.js';
import { DIALECTS, useTestDatabase } from './databases.js';

const NOW = new Date('2030-01-01T12:00:00.000Z');
const MINUTE = 60_000;
const SESSION = { idleHours: 24, maxDays: 7 };

describe.each(DIALECTS)('the rate-limit table and the sweep on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  /** Stores a counter whose window started `ageMs` before NOW, and returns its key. */
  async function counterStarted(ageMs: number): Promise<string> {
    const key = `test:age:${ageMs}`;
    const window_start = new Date(NOW.getTime() - ageMs).toISOString();
    await db().insertInto('rate_limits').values({ key, window_start, count: 1 }).execute();
    return key;
  }
  const keysLeft = async () =>
    (await db().selectFrom('rate_limits').select('key').orderBy('key').execute()).map((row) => row.key);

  it('keeps every counter that a limit of the table can still read, and deletes the older ones', async () => {
    // Worked out here, not with the sweep's helper: a longer window added to the table moves this too.
    const longestMs = Math.max(...Object.values(RATE_LIMITS).map((limit) => limit.windowSeconds)) * 1000;
    const live = await counterStarted(longestMs - MINUTE);
    await counterStarted(longestMs + MINUTE);

    await sweepExpiredRows(db(), NOW, { rateLimits: RATE_LIMITS, session: SESSION });

    expect(await keysLeft()).toEqual([live]);
  });

  it('follows a longer window: a week-long limit keeps its six-day-old counter', async () => {
    const WEEK_MS = 7 * 24 * 60 * MINUTE;
    const rateLimits: RateLimits = {
      ...RATE_LIMITS,
      walletRecoveryPerUser: { max: 10, windowSeconds: WEEK_MS / 1000 },
    };
    const sixDays = await counterStarted(WEEK_MS - 24 * 60 * MINUTE);
    await counterStarted(WEEK_MS + MINUTE);

    await sweepExpiredRows(db(), NOW, { rateLimits, session: SESSION });

    expect(await keysLeft()).toEqual([sixDays]);
  });
});
