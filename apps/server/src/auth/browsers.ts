import type { BrowserInfo } from '@dial/api';
import { DialError } from '@dial/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { sessionIsLive } from '../db/sessionLiveness.js';
import { describeUserAgent } from './describeUserAgent.js';

/**
 * The browsers an account knows (`known_devices`: each signed in to it at least once and was not forgotten),
 * the most recently seen first: each named from its latest sign-in's `User-Agent`, with its live sessions
 * (not past their end nor idle too long) and whether it is the asking browser.
 *
 * @param options.currentDeviceHash - the request's device cookie's hash (`deviceHashOf`), if it sent one.
 */
export async function listBrowsers(
  db: Kysely<Database>,
  userId: string,
  options: { now: Date; idleHours: number; currentDeviceHash: string | undefined },
): Promise<BrowserInfo[]> {
  const { now, idleHours, currentDeviceHash } = options;
  const devices = await db
    .selectFrom('known_devices')
    .select(['id', 'device_hash', 'user_agent', 'created_at', 'last_seen_at'])
    .where('user_id', '=', userId)
    .execute();
  const sessions = await db
    .selectFrom('sessions')
    .select((eb) => [
      'device_hash',
      eb.fn.countAll<number | string | bigint>().as('count'),
      eb.fn.max('last_seen_at').as('last_seen_at'),
    ])
    .where('user_id', '=', userId)
    .where('device_hash', 'is not', null)
    .where(sessionIsLive(idleHours, now))
    .groupBy('device_hash')
    .execute();
  const live = new Map(sessions.map((row) => [row.device_hash, row]));

  return devices
    .map((device) => {
      const own = live.get(device.device_hash);
      // Sign-ins update known_devices; a session's requests update only the session.
      const lastSeenAt =
        own !== undefined && own.last_seen_at > device.last_seen_at ? own.last_seen_at : device.last_seen_at;
      return {
        id: device.id,
        name: describeUserAgent(device.user_agent),
        firstSeenAt: device.created_at,
        lastSeenAt,
        sessions: Number(own?.count ?? 0),
        current: device.device_hash === currentDeviceHash,
      };
    })
    .sort(
      (a, b) =>
        compareDesc(a.lastSeenAt, b.lastSeenAt) ||
        compareDesc(a.firstSeenAt, b.firstSeenAt) ||
        (a.id < b.id ? -1 : 1),
    );
}

function compareDesc(a: string, b: string): number {
  return a === b ? 0 : a < b ? 1 : -1;
}

/**
 * Forgets one of the account's browsers: deletes its `known_devices` row and ends (deletes) every session of
 * the account from it, on every server at once (each reads the session from the database). The browser keeps
 * its device cookie, but the account no longer knows it: its next sign-in is a new browser's, which the owner
 * is told about (`startSignedInSession`), and codes it asks for need a proof of work again. Sessions of the
 * browser on other accounts stay.
 *
 * @param browserId - its public id (`known_devices.id`), never its cookie or the cookie's hash.
 * @returns how many sessions ended (rows of sessions already past their end but not yet swept count too).
 * @throws {DialError} `not_found` when the id is not one of this account's browsers (another's, or gone).
 */
export async function forgetBrowser(
  db: Kysely<Database>,
  userId: string,
  browserId: string,
): Promise<{ endedSessions: number }> {
  return await db.transaction().execute(async (trx) => {
    const forgotten = await trx
      .deleteFrom('known_devices')
      .where('id', '=', browserId)
      .where('user_id', '=', userId)
      .returning('device_hash')
      .executeTakeFirst();
    if (forgotten === undefined) throw new DialError('not_found', { details: 'no such browser of yours' });
    const ended = await trx
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('device_hash', '=', forgotten.device_hash)
      .returning('id')
      .execute();
    return { endedSessions: ended.length };
  });
}
