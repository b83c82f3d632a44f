import type { FastifyBaseLogger, FastifyLogFn, RawRequestDefaultExpression } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

/**
 * Fastify's `childLoggerFactory` for Dial: a request's logger that becomes pino's child logger (with the
 * request's `reqId`) only when the request first logs. Fastify makes that child for every request, at a cost
 * of microseconds even when the request logs nothing, as most do (successful reads are not logged:
 * `OneLineRequestLog`). Every line a request writes still carries its `reqId`, at the level and with the
 * serializers Fastify asked for.
 */
export function lazyChildLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
  _request: RawRequestDefaultExpression,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}

/** A logger that forwards to `parent.child(bindings, options)`, made at its first use. */
export class LazyChildLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The child logger, made now if this is the first use. */
  get #logger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  fatal(...args: Parameters<FastifyLogFn>): void {
    this.#logger.fatal(...args);
  }

  error(...args: Parameters<FastifyLogFn>): void {
    this.#logger.error(...args);
  }

  warn(...args: Parameters<FastifyLogFn>): void {
    this.#logger.warn(...args);
  }

  info(...args: Parameters<FastifyLogFn>): void {
    this.#logger.info(...args);
  }

  debug(...args: Parameters<FastifyLogFn>): void {
    this.#logger.debug(...args);
  }

  trace(...args: Parameters<FastifyLogFn>): void {
    this.#logger.trace(...args);
  }

  silent(...args: Parameters<FastifyLogFn>): void {
    this.#logger.silent(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}
