import type { RedisConfig } from '../config/index.js';
import type { RedisClient } from '../rateLimit/connectRedis.js';

/** The Redis channel (under `REDIS_KEY_PREFIX`) on which servers tell each other whose events to read now. */
export const WAKE_CHANNEL = 'wallet-events';

/**
 * The wake channel of one deployment: `<keyPrefix>wallet-events:<database>:<appId>`, e.g.
 * `dial:rate:wallet-events:2:wallet.example.com`. Redis pub/sub ignores the database number: deployments
 * sharing one Redis on databases of their own would share a channel of one name, wake each other's servers
 * and read each other's user ids. The name carries the database number of `REDIS_URL` and the deployment's
 * `APP_ID`, which all servers of one deployment share.
 */
export function wakeChannel(redis: RedisConfig, appId: string): string {
  const database = Number(new URL(redis.url).pathname.slice(1) || '0');
  return `${redis.keyPrefix}${WAKE_CHANNEL}:${database}:${appId}`;
}

/** Wake-ups between servers through Redis pub/sub. */
export interface RedisWake {
  /** Tells every server (this one too) that `userId` has a new event. Never throws: a failure is logged. */
  publish(userId: string): void;
  /** Closes the subscriber connection. */
  close(): Promise<void>;
}

/**
 * Subscribes to `channel` ({@link wakeChannel}) on a second connection (a subscribed connection can do
 * nothing else) and calls `onWake` with each user id published there. A message only says "read the table
 * now": it carries no event, so nothing anyone publishes on the channel can put an event in a stream.
 *
 * @throws {Error} When the subscriber cannot connect at start.
 */
export async function connectRedisWake(
  redis: RedisClient,
  channel: string,
  onWake: (userId: string) => void,
  onError: (error: unknown) => void,
): Promise<RedisWake> {
  const subscriber = redis.duplicate();
  subscriber.on('error', onError);
  await subscriber.connect();
  await subscriber.subscribe(channel, (message) => onWake(message));
  return {
    publish(userId) {
      redis.publish(channel, userId).catch(onError);
    },
    async close() {
      // Not an UNSUBSCRIBE first: a Redis that stopped answering would hold the app's close forever.
      subscriber.destroy();
    },
  };
}
