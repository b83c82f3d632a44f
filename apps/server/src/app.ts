import { readFileSync } from 'node:fs';
import fastifySwagger from '@fastify/swagger';
import { type TypeBoxTypeProvider, TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { registerAccountChangeRoutes } from './accountChanges/accountChangeRoutes.js';
import { registerActivityRoutes } from './activity/activityRoutes.js';
import { startTransferCheckTimer } from './activity/transferCheckTimer.js';
import type { AppContext } from './appContext.js';
import { registerAccountSessionRoutes } from './auth/accountSessionRoutes.js';
import { registerBrowserRoutes } from './auth/browserRoutes.js';
import { chooseTransports } from './auth/chooseTransports.js';
import { registerMethodRoutes } from './auth/methodRoutes.js';
import { registerOtpRoutes } from './auth/otpRoutes.js';
import { registerReauthRoutes } from './auth/reauthRoutes.js';
import { registerSessionRoutes } from './auth/sessionRoutes.js';
import { registerSessions, SESSION_COOKIE } from './auth/sessions.js';
import { registerSiweRoutes } from './auth/siwe/siweRoutes.js';
import { type ChainReader, createChainReader } from './chain/chainReader.js';
import { createChainWatchDeps } from './chainWatch/chainWatch.js';
import { startChainWatchTimer } from './chainWatch/chainWatchTimer.js';
import { watchedChains } from './chainWatch/watchedChains.js';
import { type AppConfig, decideOnrampProvider, isLoopbackHost } from './config/index.js';
import { deriveKey } from './crypto/deriveKey.js';
import { createDatabase } from './db/createDatabase.js';
import type { Database } from './db/database.js';
import { migrateToLatest } from './db/migrateToLatest.js';
import { sweepExpiredRows } from './db/sweepExpiredRows.js';
import type { Channel, MessageTransport } from './delivery/index.js';
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
import { registerErrorHandling } from './http/errorHandling.js';
import { httpServerOptions, watchHttpServer } from './http/httpServer.js';
import { withLazyChildren } from './http/lazyChildLogger.js';
import { lazySerializerCompiler } from './http/lazySerializers.js';
import { redactUrl } from './http/redactUrl.js';
import { registerControlCharacterCheck } from './http/refuseControlCharacters.js';
import { registerUndeclaredErrorCheck } from './http/refuseUndeclaredErrors.js';
import { OneLineRequestLog } from './http/requestLog.js';
import { registerSecurityHeaders } from './http/securityHeaders.js';
import { serveWebApp } from './http/serveWebApp.js';
import type { TypedApp } from './http/typedApp.js';
import { registerNoticeRoutes } from './notices/noticeRoutes.js';
import { availableOffers } from './onramp/availableOffers.js';
import { createCoinbaseProvider } from './onramp/coinbaseProvider.js';
import type { OnrampProvider } from './onramp/onrampProvider.js';
import { registerOnrampRoutes } from './onramp/onrampRoutes.js';
import { registerPriceRoutes } from './prices/priceRoutes.js';
import { connectRedis, type RedisClient } from './rateLimit/connectRedis.js';
import type { RateLimiter } from './rateLimit/rateLimiter.js';
import { createRedisRateLimiter } from './rateLimit/redisRateLimiter.js';
import { createSqlRateLimiter } from './rateLimit/sqlRateLimiter.js';
import { SERVER_ROOT } from './serverRoot.js';
import { type RepeatingTask, startRepeatingTask } from './system/repeatingTask.js';
import { registerSystemRoutes } from './system/systemRoutes.js';
import { registerRecipientRoutes } from './wallet/recipientRoutes.js';
import { registerRecoveryOprfRoutes } from './wallet/recoveryOprfRoutes.js';
import { registerWalletRoutes } from './wallet/walletRoutes.js';

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
  /** The wallet streams' timings and limits instead of {@link WALLET_STREAM_SETTINGS}. */
  walletStreams?: Partial<WalletStreamSettings>;
}

/** Request bodies are small JSON documents; the JSON-RPC proxy allows more on its own route. */
const BODY_LIMIT_BYTES = 16 * 1024;
/** How often expired codes, sessions and rate-limit windows are deleted. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * Log paths that could carry secrets: session cookies, authorization headers, bodies (codes, auth shares).
 * Fastify's default serializers log none of them; this keeps it so if a log call adds them.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'req.body',
  'body',
  'code',
  'token',
  'authShare',
  '*.authShare',
];

/**
 * Builds the Dial server: the API, the dev routes outside production, and the web app when it is built.
 * Runs the database migrations first, then connects to Redis when `REDIS_URL` is set (and fails when it
 * cannot). Does not listen: call `listen()`, or drive it with `inject()`. Closing the app closes what it
 * opened (the database unless it was given, the Redis connection, SMTP connections, timers).
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

  const logger = pino(
    {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // Fastify's request serializer, with secrets in the query (the on-ramp's sessionToken) blanked; Fastify
      // adds its own for the rest (`res`, `err`).
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
    },
    // To stdout through a buffer written in the background (pino flushes it when the process exits), so a
    // request does not wait on a write(2) of its log lines.
    deps.logStream ?? pino.destination({ dest: 1, sync: false }),
  );
  const app = Fastify({
    // A request's child logger (with its reqId) is made when it first logs, not for every request.
    loggerInstance: withLazyChildren(logger),
    logController: new OneLineRequestLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    // TRUST_PROXY, the timeouts and connection cap, and catalogue answers to requests that cannot be read
    // (over-size headers, an unknown method, a timeout, a malformed URL), with the security headers.
    ...httpServerOptions(config),
  }).withTypeProvider<TypeBoxTypeProvider>();
  watchHttpServer(app, config);
  // TypeBox's own checker: strict types (no coercion of 1 to "1"), exactly what the schemas say.
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  // Each response serializer is compiled at its first use rather than all of them at start.
  app.setSerializerCompiler(lazySerializerCompiler());

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

  let sweep: RepeatingTask | undefined;
  let transferChecks: RepeatingTask | undefined;
  let chainWatch: RepeatingTask | undefined;
  app.addHook('onReady', async () => {
    sweep = startRepeatingTask(
      () => sweepExpiredRows(db, ctx.now(), config),
      SWEEP_INTERVAL_MS,
      (error) => app.log.warn({ err: error }, 'sweeping expired rows failed'),
    );
    transferChecks = startTransferCheckTimer(ctx, app.log, deps.transferCheckIntervalMs);
    const chains = watchedChains(config);
    if (config.chainWatch.intervalMs > 0 && chains.length > 0) {
      chainWatch = startChainWatchTimer(
        createChainWatchDeps(ctx),
        chains,
        app.log,
        config.chainWatch.intervalMs,
      );
    }
  });
  // Before the HTTP server closes: it waits for open answers, and a stream would never end by itself.
  app.addHook('preClose', async () => {
    await walletStreams.close();
  });
  app.addHook('onClose', async () => {
    await walletStreams.close();
    await redisWake?.close();
    // Before the database closes: the tick at work finishes first.
    await sweep?.stop();
    await transferChecks?.stop();
    await chainWatch?.stop();
    chosen.close();
    // Requests have finished by now; destroy() also stops a reconnection in progress.
    redis?.destroy();
    if (ownsDb) await db.destroy();
  });

  registerCookies(app);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Dial API',
        version: readPackageVersion(),
        description:
          'Sign-in with one-time codes, sessions, and the embedded-wallet registry of a Dial server. ' +
          'Errors are `{"error":{"code","message"}}` with a code from the error catalogue.',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
      },
    },
  });

  // Only JSON bodies: text/plain (a "simple" cross-site request) is refused with 415 before any handler.
  app.removeContentTypeParser('text/plain');

  // Before any route: a route keeps the error handler that is set when it is built, and awaiting a plugin
  // (the web app's, below) builds the routes declared so far.
  let webAppFallback: Awaited<ReturnType<typeof serveWebApp>>;
  registerErrorHandling(app, async (request, reply) => webAppFallback?.(request, reply) ?? false);
  registerSecurityHeaders(app, config);
  registerOriginCheck(app, config.allowedOrigins);
  registerControlCharacterCheck(app);
  // Under vitest (NODE_ENV=test): every error a test provokes is checked against the route's contract.
  if (process.env.NODE_ENV === 'test') registerUndeclaredErrorCheck(app);
  registerSessions(app, ctx);

  const typed: TypedApp = app;
  const onrampOffers = availableOffers(config);
  const onramp = await createOnrampProvider(ctx, onrampOffers);
  registerSystemRoutes(typed, ctx, {
    localChain: hasLocalChain(config),
    onramp: onramp === null ? null : { provider: onramp.name, offers: onrampOffers },
    redis,
  });
  registerOtpRoutes(typed, ctx);
  registerSiweRoutes(typed, ctx);
  registerSessionRoutes(typed, ctx);
  registerReauthRoutes(typed, ctx);
  registerMethodRoutes(typed, ctx);
  registerAccountSessionRoutes(typed, ctx);
  registerAccountChangeRoutes(typed, ctx, deps.accountChangeIntervalMs);
  registerBrowserRoutes(typed, ctx);
  registerNoticeRoutes(typed, ctx);
  registerWalletRoutes(typed, ctx);
  registerRecoveryOprfRoutes(typed, ctx);
  registerRecipientRoutes(typed, ctx);
  registerActivityRoutes(typed, ctx);
  registerPriceRoutes(typed, ctx);
  registerEventRoutes(typed, walletStreams);
  if (onramp !== null) registerOnrampRoutes(typed, ctx, onramp, onrampOffers);
  if (onramp?.name === 'sandbox') {
    // Like the sandbox's provider, loaded only when it is on (never in production).
    const { registerSandboxRoutes } = await import('./onramp/sandboxRoutes.js');
    await registerSandboxRoutes(app, ctx, onrampOffers);
  }
  if (config.environment !== 'production') {
    // Imported here, not at the top: a production server does not load the dev routes (nor the dev chain).
    const { registerLocalChainRoutes, registerOutboxRoutes } = await import('./dev/devRoutes.js');
    registerOutboxRoutes(typed, ctx);
    if (hasLocalChain(config) && config.localChain !== null) {
      registerLocalChainRoutes(typed, ctx, config.localChain.rpcUrl);
    }
  }

  webAppFallback = await serveWebApp(app, config.webDistDir);

  if (config.environment !== 'production' && !isLoopbackHost(config.host)) {
    // loadConfig allows this only with DEV_ALLOW_REMOTE=true.
    app.log.warn(
      `HOST=${config.host} (DEV_ALLOW_REMOTE=true): the dev outbox at /dev/outbox shows every sign-in code to ` +
        'anyone who can reach this port, so anyone on that network can sign in as anyone. Use ' +
        'NODE_ENV=production for a server others reach.',
    );
  }
  if (config.environment === 'production') {
    if (new URL(config.publicUrl).protocol !== 'https:') {
      app.log.warn('PUBLIC_URL is not https: browsers drop the Secure session cookie, so sign-in will fail');
    }
    for (const [chainId, rpcUrl] of Object.entries(config.rpcUrls)) {
      // Not the URL itself: it may hold an API key.
      if (new URL(rpcUrl).protocol !== 'https:') {
        app.log.warn(
          `RPC_URL_${chainId} is not https: browsers block it from an https page, so reading that chain fails`,
        );
      }
    }
    for (const channel of ['email', 'sms'] as const) {
      if (ctx.transports[channel] === undefined) {
        app.log.warn(`no ${channel === 'email' ? 'SMTP_URL' : 'Twilio settings'}: ${channel} sign-in is off`);
      }
    }
  }
  return app;
}

/**
 * The on-ramp provider the configuration picked (`decideOnrampProvider`, which a configuration built by hand
 * is held to as well), or none when it is off or has nothing to offer (then `/api/config` says
 * `onramp: null` and `/api/onramp/session` does not exist).
 */
async function createOnrampProvider(
  ctx: AppContext,
  offers: ReturnType<typeof availableOffers>,
): Promise<OnrampProvider | null> {
  const { config } = ctx;
  if (config.onramp === null || offers.length === 0) return null;
  const coinbase = config.onramp.coinbase;
  switch (decideOnrampProvider({ ...config, coinbase })) {
    case 'coinbase':
      return coinbase === null ? null : createCoinbaseProvider(coinbase, config.onramp, offers);
    case 'sandbox': {
      const { createSandboxProvider } = await import('./onramp/sandboxProvider.js');
      return createSandboxProvider(ctx.db, config.publicUrl, ctx.now);
    }
    case 'off':
      return null;
  }
}

/** The local chain's routes exist in development and test with the local chain on, never in production. */
function hasLocalChain(config: AppConfig): boolean {
  return config.environment !== 'production' && config.localChain !== null;
}

function readPackageVersion(): string {
  const text = readFileSync(new URL('package.json', SERVER_ROOT), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
