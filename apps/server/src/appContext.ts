import type { Channel } from '@dial/core';
import type { Kysely } from 'kysely';
import type { Hex } from 'viem';
import type { ChainReader } from './chain/chainReader.js';
import type { AppConfig } from './config/index.js';
import type { Database } from './db/database.js';
import type { MessageTransport, OutboxStore } from './delivery/index.js';
import type { SendFromFaucetOptions } from './devchain/index.js';
import type { RateLimiter } from './rateLimit/rateLimiter.js';

/** What the routes share: configuration, the database, the clock, derived keys and outside services. */
export interface AppContext {
  config: AppConfig;
  db: Kysely<Database>;
  /** The clock; tests inject one to move time. */
  now: () => Date;
  /** Every rate limit: counters in Redis when `REDIS_URL` is set, else in the database. */
  rateLimiter: RateLimiter;
  /** Keys derived from `SHARE_ENCRYPTION_KEY` with HKDF. */
  keys: {
    otp: Buffer;
    authShare: Buffer;
    onrampPartner: Buffer;
    /** The seed of every user's recovery-password OPRF key (`deriveRecoveryOprfKey`). */
    recoveryOprf: Buffer;
  };
  /** How codes reach people, per channel; a channel without one is not available. */
  transports: Partial<Record<Channel, MessageTransport>>;
  /** The dev outbox's messages (kept in the database). */
  outbox: OutboxStore;
  /** Sends test ETH from the local chain's faucet (the dev chain's `sendFromFaucet`). */
  sendFromFaucet: (options: SendFromFaucetOptions) => Promise<Hex>;
  /** Reads transactions from the chains through the configured RPCs (the activity's chain checks). */
  chain: ChainReader;
  /**
   * Wakes the live streams of a user who has a new wallet event (`publishWalletEvent` calls it): this
   * server's at once, the other servers' through Redis when `REDIS_URL` is set.
   */
  wakeWalletStreams: (userId: string) => void;
}
