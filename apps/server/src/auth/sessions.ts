import { hash, randomBytes, randomUUID } from 'node:crypto';
import { DAY_MS, DialError, MINUTE_MS } from '@dial/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppContext } from '../appContext.js';
import { batchedLookup } from '../db/batchedLookup.js';
import type { Database, IdentityKind } from '../db/database.js';
import { dialectOf } from '../db/dialectOf.js';
import { preparedQuery } from '../db/preparedQuery.js';
import { isLiveAt } from '../db/sessionLiveness.js';
import { storedTime } from '../db/storedTime.js';
import type { CookieOptions } from '../http/cookies.js';
import { readUser, type User, userColumns } from './users.js';

/** The session cookie's name. */
export const SESSION_COOKIE = 'dial_session';

/** How long sessions last: `SESSION_IDLE_HOURS` without a request, `SESSION_MAX_DAYS` at most. */
export interface SessionPolicy {
  idleHours: number;
  maxDays: number;
}

/** `last_seen_at` is written at most this often, so a busy session does not write on every request. */
const TOUCH_INTERVAL_MS = MINUTE_MS;
/** 32 bytes in base64url, no padding. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by `requireUser`; `null` before it runs or on routes without it. */
    user: User | null;
  }
  interface FastifyInstance {
    /** A preHandler that answers `401 unauthorized` unless the request carries a live session. */
    requireUser: (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;
  }
}

/** The value stored for a token: SHA-256 of its UTF-8, hex. The token itself is never stored. */
export function hashToken(token: string): string {
  // The one-shot hash: a third of createHash's cost, on every authenticated request.
  return hash('sha256', token, 'hex');
}

/** What a session records about how it started, for its owner's sessions list. */
export interface SessionOrigin {
  /** The browser's `User-Agent`; cut to {@link MAX_USER_AGENT_LENGTH} characters. */
  userAgent?: string | undefined;
  /** The kind of sign-in method that started it. */
  method?: IdentityKind | undefined;
  /** The sign-in method (identities.id) that started it, when it is one of the account's methods. */
  identityId?: string | null | undefined;
  /** The browser's device hash (`ensureDevice`). */
  deviceHash?: string | null | undefined;
}

/** The longest `User-Agent` a session keeps. */
export const MAX_USER_AGENT_LENGTH = 512;

/** Starts a session for a user: a new random 256-bit token (base64url), stored as its hash only. */
export async function createSession(
  db: Kysely<Database>,
  userId: string,
  policy: SessionPolicy,
  now: Date,
  origin: SessionOrigin = {},
): Promise<{ token: string; expiresAt: Date; id: string }> {
  const token = randomBytes(32).toString('base64url');
  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + policy.maxDays * DAY_MS);
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      id,
      user_agent: origin.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
      method: origin.method ?? null,
      identity_id: origin.identityId ?? null,
      device_hash: origin.deviceHash ?? null,
      user_id: userId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
    })
    .execute();
  return { token, expiresAt, id };
}

/** A session's row and its user's, by the token's hash (SQLite: one session a query, so no hash read back). */
const selectSessionUser = preparedQuery((db, tokenHash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.last_seen_at', 'sessions.expires_at'])
    .select(userColumns())
    .where('sessions.token_hash', '=', tokenHash),
);

/**
 * How many sessions {@link selectSessionUsers} reads at once: a statement for each size, prepared once, a batch
 * padded to the next size. PostgreSQL plans `in ($1, …)` once for all executions of a statement, where
 * `= any($1)` of an array is planned again at every execution (which costs more than the query).
 */
const SESSION_BATCH_SIZES = [1, 2, 4, 8, 16, 32, 64] as const;
const MAX_SESSION_BATCH = SESSION_BATCH_SIZES.at(-1)!;

const selectSessionUsersBySize = SESSION_BATCH_SIZES.map(() =>
  preparedQuery((db, ...tokenHashes: string[]) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.token_hash', 'sessions.last_seen_at', 'sessions.expires_at'])
      .select(userColumns())
      .where('sessions.token_hash', 'in', tokenHashes),
  ),
);

/**
 * {@link selectSessionUser} for up to {@link MAX_SESSION_BATCH} sessions at once (distinct hashes), each row
 * with its hash, to tell whose it is.
 */
function selectSessionUsers(
  db: Kysely<Database>,
  tokenHashes: string[],
): Promise<Array<SessionUserRow & { token_hash: string }>> {
  const size = SESSION_BATCH_SIZES.findIndex((batchSize) => batchSize >= tokenHashes.length);
  const padded = [...tokenHashes];
  // The last hash again: the same rows, and one statement for every batch of a size.
  while (padded.length < SESSION_BATCH_SIZES[size]!) padded.push(tokenHashes.at(-1)!);
  return selectSessionUsersBySize[size]!(db, ...padded);
}

type SessionUserRow = Awaited<ReturnType<typeof selectSessionUser>>[number];

/** The session look-ups of each PostgreSQL database, batched ({@link batchedLookup}). */
const sessionLookups = new WeakMap<
  Kysely<Database>,
  (tokenHash: string) => Promise<SessionUserRow | undefined>
>();

/**
 * The row of a session and its user. On PostgreSQL, the look-ups of the requests read in one turn of the event
 * loop go as one query (one round trip and one execution for all of them, not one each): each request still
 * reads the database after it arrived. On SQLite, one query on the connection at once, answered at once.
 */
function readSessionUser(
  db: Kysely<Database>,
  tokenHash: string,
): SessionUserRow | undefined | Promise<SessionUserRow | undefined> {
  if (dialectOf(db) === 'sqlite') return selectSessionUser.firstNow(db, tokenHash);
  let lookup = sessionLookups.get(db);
  if (lookup === undefined) {
    lookup = batchedLookup(
      (tokenHashes: string[]) => selectSessionUsers(db, tokenHashes),
      (row) => row.token_hash,
      MAX_SESSION_BATCH,
    );
    sessionLookups.set(db, lookup);
  }
  return lookup(tokenHash);
}

/**
 * The user of a live session, read with the session in one query (prepared once: it runs on every
 * authenticated request; on PostgreSQL, batched with the other requests of the moment: `readSessionUser`).
 * Nothing is kept between requests, so a session ended on any server sharing the database is refused here
 * at once. Whether the session is live is `db/sessionLiveness.ts`'s rule (`isLiveAt`); an ended session's row
 * is deleted. Marks the session as seen, at most once a minute.
 *
 * The answer comes at once when the database could answer at once and nothing had to be written (SQLite,
 * mostly), else as a promise: `await` it.
 *
 * @returns `undefined` when the token is malformed, unknown or ended.
 */
export function findSessionUser(
  db: Kysely<Database>,
  token: string,
  policy: SessionPolicy,
  now: Date,
): User | undefined | Promise<User | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const tokenHash = hashToken(token);
  const row = readSessionUser(db, tokenHash);
  return row instanceof Promise
    ? row.then((found) => liveSessionUser(db, tokenHash, found, policy, now))
    : liveSessionUser(db, tokenHash, row, policy, now);
}

/** The user of a session's row when the session is live, after deleting it when it has ended. */
function liveSessionUser(
  db: Kysely<Database>,
  tokenHash: string,
  row: SessionUserRow | undefined,
  policy: SessionPolicy,
  now: Date,
): User | undefined | Promise<User | undefined> {
  if (row === undefined) return undefined;
  const lastSeen = storedTime(row.last_seen_at);
  if (!isLiveAt(storedTime(row.expires_at), lastSeen, policy.idleHours, now.getTime())) {
    return db
      .deleteFrom('sessions')
      .where('token_hash', '=', tokenHash)
      .execute()
      .then(() => undefined);
  }
  if (now.getTime() - lastSeen >= TOUCH_INTERVAL_MS) {
    return db
      .updateTable('sessions')
      .set({ last_seen_at: now.toISOString() })
      .where('token_hash', '=', tokenHash)
      .execute()
      .then(() => readUser(row));
  }
  return readUser(row);
}

/** Ends a session on the server (deletes its row). A malformed or unknown token is ignored. */
export async function endSession(db: Kysely<Database>, token: string): Promise<void> {
  if (!TOKEN_PATTERN.test(token)) return;
  await db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
}

/** The session cookie's attributes: HttpOnly, SameSite=Strict, Path=/, Secure in production. */
export function sessionCookieOptions(ctx: AppContext): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: ctx.config.environment === 'production',
  };
}

/** Sets a new session cookie; it lasts as long as the session can (`SESSION_MAX_DAYS`). */
export function setSessionCookie(reply: FastifyReply, ctx: AppContext, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, { ...sessionCookieOptions(ctx), expires: expiresAt });
}

/** Tells the browser to drop the session cookie. */
export function clearSessionCookie(reply: FastifyReply, ctx: AppContext): void {
  reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(ctx));
}

/** Adds `request.user` and the `requireUser` preHandler. */
export function registerSessions(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('user', null);
  const accept = (
    request: FastifyRequest,
    reply: FastifyReply,
    user: User | undefined,
  ): DialError | undefined => {
    if (user !== undefined) {
      request.user = user;
      return undefined;
    }
    // A cookie for an ended session is useless: drop it so the browser stops sending it.
    clearSessionCookie(reply, ctx);
    return new DialError('unauthorized');
  };
  // A plain callback, not an async function: on SQLite the session is read at once, and the request goes on
  // without waiting for a turn of the microtask queue.
  app.decorate(
    'requireUser',
    (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token === undefined || token === '') {
        done(new DialError('unauthorized'));
        return;
      }
      let found: ReturnType<typeof findSessionUser>;
      try {
        found = findSessionUser(ctx.db, token, ctx.config.session, ctx.now());
      } catch (error) {
        done(error as Error);
        return;
      }
      if (found instanceof Promise) {
        found.then((user) => done(accept(request, reply, user)), done);
      } else {
        done(accept(request, reply, found));
      }
    },
  );
}
