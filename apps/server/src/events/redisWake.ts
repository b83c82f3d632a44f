import type { RedisClient } from '../rateLimit/connectRedis.js';

/** The Redis channel (under `REDIS_KEY_PREFIX`) on which servers tell each other whose events to read now. */
export const WAKE_CHANNEL = 'wallet-events';

/** Wake-ups between servers through Redis pub/sub. */
export interface RedisWake {
  /** Tells every server (this one too) that `userId` has a new event. Never throws: a failure is logged. */
  publish(userId: string): void;
  /** Closes the subscriber connection. */
  close(): Promise<void>;
}

/**
 * Subscribes to the wake channel on a second connection (a subscribed connection can do nothing else) and
 * calls `onWake` with each user id published there. A message only says "read the table now": it carries no
 * event, so nothing anyone publishes on the channel can put an event in a stream.
 *
 * @throws {Error} When the subscriber cannot connect at start.
 */
export async function connectRedisWake(
  redis: RedisClient,
  keyPrefix: string,
  onWake: (userId: string) => void,
  onError: (error: unknown) => void,
): Promise<RedisWake> {
  const channel = `${keyPrefix}${WAKE_CHANNEL}`;
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
