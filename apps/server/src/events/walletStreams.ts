import { PassThrough } from 'node:stream';
import { DialError } from '@dial/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { SessionPolicy } from '../auth/sessions.js';
import type { Database } from '../db/database.js';
import { isSessionLive } from '../db/sessionLiveness.js';

/** The timings and limits of a server's wallet streams. */
export interface WalletStreamSettings {
  /** How often the poller reads new events for the streams open on this server. */
  pollMs: number;
  /** How often each stream's session is checked again (one query for all of them). */
  sessionCheckMs: number;
  /** How often a comment line is sent, so proxies and the idle timeout keep the connection. */
  heartbeatMs: number;
  /**
   * How long an event id may stay uncommitted after a higher one committed (PostgreSQL hands identity values
   * out in order, but transactions commit in any order): the poller reads again every event of the user
   * above the highest one seen longer ago than this, so a late commit still arrives.
   */
  graceMs: number;
  /** Open streams per user on one server. */
  maxPerUser: number;
  /** The `retry:` hint: how long a browser waits before reconnecting. */
  retryMs: number;
  /** The most events replayed on a resume; beyond it the stream sends `reset` instead. */
  maxReplay: number;
  /** A stream whose client reads nothing while this much waits for it is closed. */
  maxBufferedBytes: number;
}

export const WALLET_STREAM_SETTINGS: WalletStreamSettings = Object.freeze({
  pollMs: 1_000,
  sessionCheckMs: 5_000,
  heartbeatMs: 15_000,
  graceMs: 30_000,
  maxPerUser: 5,
  retryMs: 3_000,
  maxReplay: 200,
  maxBufferedBytes: 256 * 1024,
});

/** What the streams need from the app. */
export interface WalletStreamDeps {
  db: Kysely<Database>;
  /** The app's clock: sessions' ends are in its time. */
  now: () => Date;
  session: SessionPolicy;
  log: FastifyBaseLogger;
}

/** One stream to open: whose, under which session, resumed after which id (as the client sent it). */
export interface OpenStreamRequest {
  userId: string;
  /** The session's token hash: the stream ends when that session does. */
  tokenHash: string;
  /** `Last-Event-ID` or `?after=`: `undefined` for a new stream. */
  resumeAfter: string | undefined;
}

/** This server's wallet streams. */
export interface WalletStreams {
  readonly settings: WalletStreamSettings;
  /**
   * Opens a stream: the body of a `text/event-stream` answer, already holding its first lines.
   *
   * @throws {DialError} `too_many_streams` when the user has {@link WalletStreamSettings.maxPerUser} open here.
   */
  open(request: OpenStreamRequest): Promise<PassThrough>;
  /** Reads new events for `userId` now, if a stream of theirs is open here. */
  wake(userId: string): void;
  /** How many streams are open here (of `userId`, or in all). */
  count(userId?: string): number;
  /** Ends every stream (the clients reconnect, to this or another server) and stops the timers. */
  close(): Promise<void>;
}

interface Stream {
  userId: string;
  tokenHash: string;
  out: PassThrough;
  /** Set once its first lines are written; the poller leaves it alone until then. */
  ready: boolean;
  /** Events up to this seq are known to the client (sent, or before the stream began). */
  after: number;
  /** The id last sent: the highest seq sent (a late commit is sent under the id already reached). */
  cursor: number;
  /** Seqs above `after` already sent, with when (monotonic ms): a re-read never sends one twice. */
  sent: Map<number, number>;
}

const ID_PATTERN = /^[0-9]{1,15}$/;
/** Users per poll query (each is one `or` branch): far below every dialect's limit on parameters. */
const USERS_PER_QUERY = 200;

/**
 * The wallet streams of one server, with ONE poller for all of them: each tick reads, in one query, the new
 * `wallet_events` of every user with a stream open here and fans them out; every few ticks it checks, in one
 * query, that each stream's session still lives (a session ended on any server ends its streams here). The
 * table is the source of truth, so any server can serve any stream; `wake` (a local publish, or Redis) only
 * brings the next read forward.
 */
export function createWalletStreams(
  deps: WalletStreamDeps,
  settings: WalletStreamSettings = WALLET_STREAM_SETTINGS,
): WalletStreams {
  const streams = new Set<Stream>();
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;
  let lastSessionCheck = performance.now();
  let lastHeartbeat = performance.now();

  const timer = setInterval(() => void tick(), settings.pollMs);
  timer.unref();

  function ofUser(userId: string): Stream[] {
    return [...streams].filter((stream) => stream.userId === userId);
  }

  function write(stream: Stream, text: string): void {
    if (stream.out.destroyed || stream.out.writableEnded) return;
    if (stream.out.writableLength > settings.maxBufferedBytes) {
      deps.log.warn({ userId: stream.userId }, 'wallet stream: the client reads nothing; closed');
      end(stream);
      return;
    }
    stream.out.write(text);
  }

  function end(stream: Stream, control?: 'end'): void {
    streams.delete(stream);
    if (control !== undefined) write(stream, `event: ${control}\ndata: {}\n\n`);
    stream.out.end();
  }

  function sendEvent(stream: Stream, seq: number, payload: string, seen: number): void {
    let data: string;
    try {
      // Written by publishWalletEvent; serialized again so that no line break can split the SSE field.
      data = JSON.stringify(JSON.parse(payload));
    } catch {
      deps.log.error({ seq }, 'wallet stream: an event that is not JSON was skipped');
      return;
    }
    stream.sent.set(seq, seen);
    stream.cursor = Math.max(stream.cursor, seq);
    write(stream, `id: ${stream.cursor}\ndata: ${data}\n\n`);
  }

  async function latestSeq(userId: string): Promise<number> {
    const row = await deps.db
      .selectFrom('wallet_events')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.seq == null ? 0 : Number(row.seq);
  }

  /** Writes the stream's first lines: the resume (replayed events) or a `reset`, or the current id. */
  async function start(stream: Stream, resumeAfter: string | undefined): Promise<void> {
    let head = `retry: ${settings.retryMs}\n\n`;
    const reset = async () => {
      stream.after = await latestSeq(stream.userId);
      stream.cursor = stream.after;
      return `event: reset\nid: ${stream.cursor}\ndata: {}\n\n`;
    };
    if (resumeAfter === undefined) {
      stream.after = await latestSeq(stream.userId);
      stream.cursor = stream.after;
      write(stream, `${head}id: ${stream.cursor}\n\n`);
      return;
    }
    const after = ID_PATTERN.test(resumeAfter) ? Number(resumeAfter) : null;
    // An id this user never had (or one swept since): what came after it cannot be replayed.
    const known =
      after === 0 ||
      (after !== null &&
        (await deps.db
          .selectFrom('wallet_events')
          .select('seq')
          .where('user_id', '=', stream.userId)
          .where('seq', '=', after)
          .executeTakeFirst()) !== undefined);
    if (after === null || !known) {
      write(stream, head + (await reset()));
      return;
    }
    const rows = await deps.db
      .selectFrom('wallet_events')
      .select(['seq', 'payload'])
      .where('user_id', '=', stream.userId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(settings.maxReplay + 1)
      .execute();
    if (rows.length > settings.maxReplay) {
      write(stream, head + (await reset()));
      return;
    }
    stream.after = after;
    stream.cursor = after;
    head += `id: ${after}\n\n`;
    write(stream, head);
    const seen = performance.now();
    for (const row of rows) sendEvent(stream, Number(row.seq), row.payload, seen);
  }

  async function readEvents(ready: Stream[]): Promise<void> {
    const floors = new Map<string, number>();
    for (const stream of ready) {
      floors.set(stream.userId, Math.min(floors.get(stream.userId) ?? stream.after, stream.after));
    }
    const users = [...floors.entries()];
    const seen = performance.now();
    for (let index = 0; index < users.length; index += USERS_PER_QUERY) {
      const chunk = users.slice(index, index + USERS_PER_QUERY);
      const rows = await deps.db
        .selectFrom('wallet_events')
        .select(['seq', 'user_id', 'payload'])
        .where((eb) =>
          eb.or(chunk.map(([userId, after]) => eb.and([eb('user_id', '=', userId), eb('seq', '>', after)]))),
        )
        .orderBy('seq')
        .execute();
      for (const row of rows) {
        const seq = Number(row.seq);
        for (const stream of ofUser(row.user_id)) {
          if (stream.ready && seq > stream.after && !stream.sent.has(seq)) {
            sendEvent(stream, seq, row.payload, seen);
          }
        }
      }
    }
    // An event seen longer than the grace ago: every lower id has committed by now (or never will), so the
    // next reads start above it.
    for (const stream of ready) {
      let after = stream.after;
      for (const [seq, at] of stream.sent) if (at <= seen - settings.graceMs && seq > after) after = seq;
      stream.after = after;
      for (const seq of stream.sent.keys()) if (seq <= after) stream.sent.delete(seq);
    }
  }

  async function checkSessions(ready: Stream[]): Promise<void> {
    const hashes = [...new Set(ready.map((stream) => stream.tokenHash))];
    const live = new Set<string>();
    const now = deps.now();
    for (let index = 0; index < hashes.length; index += USERS_PER_QUERY) {
      const rows = await deps.db
        .selectFrom('sessions')
        .select(['token_hash', 'expires_at', 'last_seen_at'])
        .where('token_hash', 'in', hashes.slice(index, index + USERS_PER_QUERY))
        .execute();
      for (const row of rows) {
        // As findSessionUser decides, without marking the session as seen: an open page does not keep it alive.
        if (isSessionLive(row, deps.session.idleHours, now)) live.add(row.token_hash);
      }
    }
    for (const stream of ready) if (!live.has(stream.tokenHash)) end(stream, 'end');
  }

  async function work(): Promise<void> {
    const ready = [...streams].filter((stream) => stream.ready);
    if (ready.length === 0) return;
    const now = performance.now();
    if (now - lastSessionCheck >= settings.sessionCheckMs) {
      lastSessionCheck = now;
      await checkSessions(ready);
    }
    await readEvents(ready.filter((stream) => streams.has(stream)));
    if (now - lastHeartbeat >= settings.heartbeatMs) {
      lastHeartbeat = now;
      for (const stream of streams) if (stream.ready) write(stream, ':\n\n');
    }
  }

  /** One tick at a time; a wake during a tick runs another right after it. */
  function tick(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running !== null) {
      again = true;
      return running;
    }
    running = work()
      .catch((error: unknown) => {
        deps.log.warn({ err: error }, 'wallet streams: reading events failed; trying again');
      })
      .finally(() => {
        running = null;
        if (again && !closed) {
          again = false;
          void tick();
        }
      });
    return running;
  }

  return {
    settings,
    async open(request) {
      if (closed) throw new DialError('internal_error', { details: 'the server is closing' });
      if (ofUser(request.userId).length >= settings.maxPerUser) {
        throw new DialError('too_many_streams', { details: `${settings.maxPerUser} open on this server` });
      }
      const stream: Stream = {
        userId: request.userId,
        tokenHash: request.tokenHash,
        out: new PassThrough(),
        ready: false,
        after: 0,
        cursor: 0,
        sent: new Map(),
      };
      // Counted at once, so that opens at the same moment cannot pass the limit together.
      streams.add(stream);
      stream.out.on('close', () => streams.delete(stream));
      try {
        await start(stream, request.resumeAfter);
      } catch (error) {
        streams.delete(stream);
        stream.out.destroy();
        throw error;
      }
      stream.ready = true;
      return stream.out;
    },
    wake(userId) {
      if (ofUser(userId).length > 0) void tick();
    },
    count(userId) {
      return userId === undefined ? streams.size : ofUser(userId).length;
    },
    async close() {
      closed = true;
      clearInterval(timer);
      for (const stream of [...streams]) end(stream);
      await running;
    },
  };
}
