import type { Channel } from '@dial/core';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { registerAccount } from './account/registerAccount.js';
import { registerAccountChangeRoutes } from './accountChanges/accountChangeRoutes.js';
import { registerActivityRoutes } from './activity/activityRoutes.js';
import type { AppContext } from './appContext.js';
import { chooseTransports } from './auth/chooseTransports.js';
import { registerAuth } from './auth/registerAuth.js';
import { SESSION_COOKIE } from './auth/sessions.js';
import { type ChainReader, createChainReader } from './chain/chainReader.js';
import { registerChainWatch } from './chainWatch/chainWatchTimer.js';
import { type AppConfig, configWarnings, isUnderTest } from './config/index.js';
import { deriveKey } from './crypto/deriveKey.js';
import { createDatabase } from './db/createDatabase.js';
import type { Database } from './db/database.js';
import { migrateToLatest } from './db/migrateToLatest.js';
import type { MessageTransport } from './delivery/index.js';
import { createDatabaseOutboxStore } from './dev/outboxStore.js';
import { sendFromFaucet } from './devchain/index.js';
import { registerEventRoutes } from './events/eventRoutes.js';
import { connectRedisWake, type RedisWake, wakeChannel } from './events/redisWake.js';
import {
  createWalletStreams,
  WALLET_STREAM_SETTINGS,
  type WalletStreamSettings,
} from './events/walletStreams.js';
import { registerOriginCheck } from './http/checkOrigin.js';
import { registerCookies } from './http/cookies.js';
import { createHttpApp } from './http/createHttpApp.js';
import { registerErrorHandling } from './http/errorHandling.js';
import { registerOpenApi } from './http/openApi.js';
import { registerControlCharacterCheck } from './http/refuseControlCharacters.js';
import { registerUndeclaredErrorCheck } from './http/refuseUndeclaredErrors.js';
import { registerSecurityHeaders } from './http/securityHeaders.js';
import { serveWebApp } from './http/serveWebApp.js';
import { registerNoticeRoutes } from './notices/noticeRoutes.js';
import { createOnramp, onrampInfo, registerOnramp } from './onramp/registerOnramp.js';
import { registerPriceRoutes } from './prices/priceRoutes.js';
import { connectRedis, type RedisClient } from './rateLimit/connectRedis.js';
import type { RateLimiter } from './rateLimit/rateLimiter.js';
import { createRedisRateLimiter } from './rateLimit/redisRateLimiter.js';
import { createSqlRateLimiter } from './rateLimit/sqlRateLimiter.js';
import { registerSponsorship } from './sponsor/registerSponsorship.js';
import { registerSystemRoutes } from './system/systemRoutes.js';
import { registerWallet } from './wallet/registerWallet.js';

/** What {@link buildApp} can be given instead of building it from the configuration (tests do). */
export interface AppDeps {
  /** A database to use; the caller keeps ownership (it is migrated, not destroyed on close). */
  db?: Kysely<Database>;
  /** Transports per channel, replacing the ones the configuration picks (a channel left out has none). */
  transports?: Partial<Record<Channel, MessageTransport>>;
  /** The clock. */
  now?: () => Date;
  /** Replaces the dev chain's `sendFromFaucet`. */
  sendFromFaucet?: AppContext['sendFromFaucet'];
  /** Where the JSON log lines go instead of stdout. */
  logStream?: { write(line: string): void };
  /** Reads the chains instead of a reader over the configured RPCs. */
  chain?: ChainReader;
  /** How often this server looks for transfers due for a chain check (default 5 s). */
  transferCheckIntervalMs?: number;
  /** How often account changes whose cooling-off period ended are made (default 30 s); tests shorten it. */
  accountChangeIntervalMs?: number;
  /** How often this server reads sponsored operations' actual costs from the chain (default 60 s). */
  sponsorshipSettleIntervalMs?: number;
  /** The wallet streams' timings and limits instead of {@link WALLET_STREAM_SETTINGS}. */
  walletStreams?: Partial<WalletStreamSettings>;
}

/**
 * Builds the Dial server: the API, the dev routes outside production, and the web app when it is built.
 * Runs the database migrations first, then connects to Redis when `REDIS_URL` is set (and fails when it
 * cannot). Does not listen: call `listen()`, or drive it with `inject()`. Closing the app closes what it
 * opened (the database unless it was given, the Redis connection, SMTP connections, timers).
 *
 * Wiring only: the shared services (database, Redis, rate limiter, transports, the wallet streams) go into
 * the {@link AppContext}, then each feature registers its routes, timers and hooks.
 */
export async function buildApp(config: AppConfig, deps: AppDeps = {}): Promise<FastifyInstance> {
  const ownsDb = deps.db === undefined;
  const db = deps.db ?? createDatabase(config);
  // Failures of the Redis connection go to the app's log once it exists.
  let logRedisError: (error: Error) => void = () => {};
  let redis: RedisClient | null = null;
  // The wallet streams exist once the app does; a wake-up from Redis before then has no stream to wake.
  let wakeLocalStreams: (userId: string) => void = () => {};
  let redisWake: RedisWake | null = null;
  try {
    await migrateToLatest(db);
    if (config.redis !== null) {
      redis = await connectRedis(config.redis.url, { onError: (error) => logRedisError(error) });
      redisWake = await connectRedisWake(
        redis,
        wakeChannel(config.redis, config.appId),
        (userId) => wakeLocalStreams(userId),
        (error) => logRedisError(error instanceof Error ? error : new Error(String(error))),
      );
    }
  } catch (error) {
    redis?.destroy();
    if (ownsDb) await db.destroy();
    throw error;
  }

  const app = createHttpApp(config, deps.logStream);
  logRedisError = (error) => app.log.error({ err: error }, 'Redis connection failed; reconnecting');
  const rateLimiter: RateLimiter =
    redis === null || config.redis === null
      ? createSqlRateLimiter(db)
      : createRedisRateLimiter(redis, {
          keyPrefix: config.redis.keyPrefix,
          onFailure: (error) => app.log.error({ err: error }, 'rate limit: Redis call failed; answered 503'),
        });

  const now = deps.now ?? (() => new Date());
  const walletStreams = createWalletStreams(
    { db, now, session: config.session, log: app.log },
    { ...WALLET_STREAM_SETTINGS, ...deps.walletStreams },
  );
  wakeLocalStreams = (userId) => walletStreams.wake(userId);
  const outbox = createDatabaseOutboxStore(db, now);
  const chosen = chooseTransports(config, outbox);
  const ctx: AppContext = {
    config,
    db,
    now,
    rateLimiter,
    keys: {
      otp: deriveKey(config.shareEncryptionKey, 'dial/otp'),
      authShare: deriveKey(config.shareEncryptionKey, 'dial/auth-share'),
      onrampPartner: deriveKey(config.shareEncryptionKey, 'dial/onramp-partner-user-id'),
      recoveryOprf: deriveKey(config.shareEncryptionKey, 'dial/recovery-oprf'),
    },
    transports: deps.transports ?? chosen.transports,
    outbox,
    sendFromFaucet: deps.sendFromFaucet ?? sendFromFaucet,
    chain: deps.chain ?? createChainReader(config),
    wakeWalletStreams(userId) {
      // This server's streams at once; the others' through Redis (or at their next poll without it).
      walletStreams.wake(userId);
      redisWake?.publish(userId);
    },
  };

  // Added first, so run last: Fastify runs the `onClose` hooks last added first, and the features' own (their
  // timers finishing the run at work, the wallet streams) need the database and Redis until they are done.
  app.addHook('onClose', async () => {
    await redisWake?.close();
    chosen.close();
    // Requests have finished by now; destroy() also stops a reconnection in progress.
    redis?.destroy();
    if (ownsDb) await db.destroy();
  });

  // What every request passes, before any route: a route keeps the error handler that is set when it is
  // built, and awaiting a plugin (the web app's, below) builds the routes declared so far.
  registerCookies(app);
  await registerOpenApi(app, SESSION_COOKIE);
  let webAppFallback: Awaited<ReturnType<typeof serveWebApp>>;
  registerErrorHandling(app, async (request, reply) => webAppFallback?.(request, reply) ?? false);
  registerSecurityHeaders(app, config);
  registerOriginCheck(app, config.allowedOrigins);
  registerControlCharacterCheck(app);
  // Under the tests: every error a test provokes is checked against the route's contract.
  if (isUnderTest()) registerUndeclaredErrorCheck(app);

  // The features, each with its routes, timers and hooks. Sign-in first: its session hook gives the others
  // `app.requireUser`.
  const onramp = await createOnramp(ctx);
  registerAuth(app, ctx);
  registerSystemRoutes(app, ctx, { onramp: onrampInfo(onramp), redis });
  registerAccount(app, ctx);
  registerAccountChangeRoutes(app, ctx, deps.accountChangeIntervalMs);
  registerNoticeRoutes(app, ctx);
  registerWallet(app, ctx);
  registerActivityRoutes(app, ctx, deps.transferCheckIntervalMs);
  registerChainWatch(app, ctx);
  registerPriceRoutes(app, ctx);
  registerSponsorship(app, ctx, deps.sponsorshipSettleIntervalMs);
  registerEventRoutes(app, walletStreams);
  await registerOnramp(app, ctx, onramp);
  if (config.environment !== 'production') {
    // Imported here, not at the top: a production server does not load the dev routes (nor the dev chain).
    const { registerDevRoutes } = await import('./dev/devRoutes.js');
    registerDevRoutes(app, ctx);
  }

  webAppFallback = await serveWebApp(app, config.webDistDir);

  const channels = { email: ctx.transports.email !== undefined, sms: ctx.transports.sms !== undefined };
  for (const warning of configWarnings(config, channels)) app.log.warn(warning);
  return app;
}
