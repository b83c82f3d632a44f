import { HOUR_MS } from '@dial/core';
import { describe, expect, it } from 'vitest';
import { isLiveAt, isSessionLive, sessionIsLive } from '../src/db/sessionLiveness.js';
import { DIALECTS, useTestDatabase } from './databases.js';

const NOW = new Date('2030-01-01T12:00:00.000Z');
const IDLE_HOURS = 24;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();

/** Sessions on each side of both ends: the absolute end and the idle end. */
const CASES = [
  { id: 'live', expires_at: at(HOUR_MS), last_seen_at: at(-HOUR_MS), live: true },
  { id: 'ends-now', expires_at: at(0), last_seen_at: at(-HOUR_MS), live: false },
  { id: 'ends-in-1ms', expires_at: at(1), last_seen_at: at(-HOUR_MS), live: true },
  { id: 'idle-now', expires_at: at(HOUR_MS), last_seen_at: at(-IDLE_HOURS * HOUR_MS), live: false },
  { id: 'idle-in-1ms', expires_at: at(HOUR_MS), last_seen_at: at(1 - IDLE_HOURS * HOUR_MS), live: true },
  { id: 'past-both', expires_at: at(-1), last_seen_at: at(-2 * IDLE_HOURS * HOUR_MS), live: false },
] as const;

describe('whether a session is live', () => {
  it.each(CASES)('$id: live is $live, by the times and by the row', (row) => {
    expect(isSessionLive(row, IDLE_HOURS, NOW)).toBe(row.live);
    expect(
      isLiveAt(Date.parse(row.expires_at), Date.parse(row.last_seen_at), IDLE_HOURS, NOW.getTime()),
    ).toBe(row.live);
  });

  describe.each(DIALECTS)('in SQL on %s', (dialect) => {
    const db = useTestDatabase(dialect);

    it('keeps the same sessions as the rule in code, and its negation the others', async () => {
      await db()
        .insertInto('users')
        .values({ id: 'u1', created_at: at(-7 * 24 * HOUR_MS) })
        .execute();
      await db()
        .insertInto('sessions')
        .values(
          CASES.map(({ id, expires_at, last_seen_at }) => ({
            token_hash: id,
            id,
            user_id: 'u1',
            created_at: at(-7 * 24 * HOUR_MS),
            last_seen_at,
            expires_at,
          })),
        )
        .execute();
      const live = await db()
        .selectFrom('sessions')
        .select('id')
        .where(sessionIsLive(IDLE_HOURS, NOW))
        .orderBy('id')
        .execute();
      const ended = await db()
        .selectFrom('sessions')
        .select('id')
        .where((eb) => eb.not(sessionIsLive(IDLE_HOURS, NOW)(eb)))
        .orderBy('id')
        .execute();
      const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
      expect(ids(live)).toEqual(
        CASES.filter((row) => row.live)
          .map((row) => row.id)
          .sort(),
      );
      expect(ids(ended)).toEqual(
        CASES.filter((row) => !row.live)
          .map((row) => row.id)
          .sort(),
      );
    });
  });
});
