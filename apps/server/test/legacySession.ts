import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hashToken } from '../src/auth/sessions.js';

/**
 * Inserts a session as the first schema (0001) stored it: the columns every later migration kept, none it
 * added. For migration tests, where today's `createSession` would write columns the old schema lacks.
 *
 * @returns the session's cookie token.
 */
// biome-ignore lint/suspicious/noExplicitAny: the table as an older migration left it, not today's types
export async function insertLegacySession(db: Kysely<any>, userId: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 7 * 24 * 3_600_000).toISOString(),
    })
    .execute();
  return token;
}
