import type { createClient } from 'redis';

/** A connected node-redis client, as {@link connectRedis} makes it. */
export type RedisClient = ReturnType<typeof newClient>;

type CreateClient = typeof createClient;

/**
 * How long a command may wait for Redis before it fails (and the request gets `503 rate_limit_unavailable`).
 * node-redis applies its own `timeout` only until the command is written, so the limiter also waits at most
 * this long for the answer.
 */
export const REDIS_TIMEOUT_MS = 2_000;
/** How long connecting may take, at start and on every reconnection. */
const CONNECT_TIMEOUT_MS = 5_000;
/** The longest pause between two reconnection attempts after the connection was lost. */
const MAX_RECONNECT_DELAY_MS = 5_000;

/** What {@link connectRedis} reports while the server runs. */
export interface ConnectRedisOptions {
  /** A connection error after the start (the client keeps reconnecting). */
  onError?: (error: Error) => void;
}

/**
 * Connects to the Redis at `url` (`redis://` or `rediss://`, with credentials and a database number as
 * usual) and waits until it answers.
 *
 * At start, an unreachable Redis is an error at once (the server must not run without its counters). Once
 * connected, a lost connection is retried with growing pauses (up to {@link MAX_RECONNECT_DELAY_MS}), and
 * meanwhile commands fail at once instead of queueing (`disableOfflineQueue`), so requests get a 503 rather
 * than hang.
 *
 * @throws {Error} naming the host and port (never the password) when Redis cannot be reached.
 */
export async function connectRedis(url: string, options: ConnectRedisOptions = {}): Promise<RedisClient> {
  let connected = false;
  // Loaded only with REDIS_URL set: a server without Redis does not load node-redis at start.
  const { createClient } = await import('redis');
  const client = newClient(createClient, url, () => connected);
  // Without a listener node-redis turns connection errors into uncaught exceptions.
  client.on('error', (error: Error) => {
    if (connected) options.onError?.(error);
  });
  try {
    await client.connect();
  } catch (error) {
    client.destroy();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `REDIS_URL: could not connect to Redis at ${new URL(url).host} (${reason}). Start Redis, correct ` +
        'REDIS_URL, or unset it to keep rate limits in the database.',
    );
  }
  connected = true;
  return client;
}

/** The client: reconnecting only once it was connected (`wasConnected`), commands never queued offline. */
function newClient(createClient: CreateClient, url: string, wasConnected: () => boolean) {
  return createClient({
    url,
    // How the connection shows in Redis's CLIENT LIST.
    name: 'dial',
    disableOfflineQueue: true,
    commandOptions: { timeout: REDIS_TIMEOUT_MS },
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries, cause) =>
        wasConnected() ? Math.min(100 * 2 ** Math.min(retries, 10), MAX_RECONNECT_DELAY_MS) : cause,
    },
  });
}
