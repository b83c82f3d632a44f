import type { FastifyBaseLogger, FastifyLogFn } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

/**
 * Dial's logger as Fastify's `loggerInstance`: the pino logger given, whose children (and theirs) become
 * pino's child loggers only when they first write. Fastify makes a child with the request's `reqId` for every
 * request, at a cost of microseconds even when the request logs nothing, as most do (successful reads are not
 * logged: `OneLineRequestLog`); through `loggerInstance`, rather than a `childLoggerFactory`, Fastify also
 * skips checking each request's logger for its methods (a few tenths of a microsecond a request). Every line
 * still carries its `reqId`, at the level and with the serializers Fastify asked for.
 */
export function withLazyChildren(logger: Logger): FastifyBaseLogger {
  // pino's own: a pino child inherits from its parent, so each child made from here on has the lazy `child`.
  const pinoChild = logger.child as unknown as PinoChild;
  logger.child = function lazyChild(this: Logger, bindings: Bindings, options: ChildLoggerOptions = {}) {
    return new LazyChildLogger(this, bindings, options, pinoChild);
  } as unknown as Logger['child'];
  return logger;
}

type PinoChild = (this: Logger, bindings: Bindings, options: ChildLoggerOptions) => Logger;

/** A logger that forwards to its pino child logger, made at its first use. */
export class LazyChildLogger implements FastifyBaseLogger {
  #child: Logger | undefined;
  readonly #parent: Logger | LazyChildLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  readonly #pinoChild: PinoChild;

  /**
   * @param parent - The logger this is a child of (a pino logger, or another lazy one): its level is this
   *   one's until the child is made, unless `options` set one.
   * @param pinoChild - pino's `child`, which makes the child logger of the parent's pino logger.
   */
  constructor(
    parent: Logger | LazyChildLogger,
    bindings: Bindings,
    options: ChildLoggerOptions,
    pinoChild: PinoChild,
  ) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
    this.#pinoChild = pinoChild;
  }

  /** The pino logger behind this one: its own child, made now if this is the first use. */
  get pino(): Logger {
    if (this.#child === undefined) {
      const parent = this.#parent instanceof LazyChildLogger ? this.#parent.pino : this.#parent;
      this.#child = this.#pinoChild.call(parent, this.#bindings, this.#options);
    }
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.pino.level = level;
  }

  /** pino's levels (Fastify checks a route's `logLevel` against them). */
  get levels(): Logger['levels'] {
    return this.pino.levels;
  }

  fatal(...args: Parameters<FastifyLogFn>): void {
    this.pino.fatal(...args);
  }

  error(...args: Parameters<FastifyLogFn>): void {
    this.pino.error(...args);
  }

  warn(...args: Parameters<FastifyLogFn>): void {
    this.pino.warn(...args);
  }

  info(...args: Parameters<FastifyLogFn>): void {
    this.pino.info(...args);
  }

  debug(...args: Parameters<FastifyLogFn>): void {
    this.pino.debug(...args);
  }

  trace(...args: Parameters<FastifyLogFn>): void {
    this.pino.trace(...args);
  }

  silent(...args: Parameters<FastifyLogFn>): void {
    this.pino.silent(...args);
  }

  /** A child of this logger, itself made at its first use (from this one's pino logger, made then too). */
  child(bindings: Bindings, options: ChildLoggerOptions = {}): FastifyBaseLogger {
    return new LazyChildLogger(this, bindings, options, this.#pinoChild);
  }
}
