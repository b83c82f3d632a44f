import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { LazyChildLogger, lazyChildLoggerFactory } from '../src/http/lazyChildLogger.js';

/** A parent logger that records the children it makes and what they log. */
function recordingParent(level = 'info') {
  const made: Array<{ bindings: object; options: object | undefined }> = [];
  const written: Array<{ level: string; args: unknown[]; bindings: object }> = [];
  const logger = (bindings: object, levelNow: string): FastifyBaseLogger => {
    const write =
      (name: string) =>
      (...args: unknown[]) => {
        written.push({ level: name, args, bindings });
      };
    return {
      level: levelNow,
      fatal: write('fatal'),
      error: write('error'),
      warn: write('warn'),
      info: write('info'),
      debug: write('debug'),
      trace: write('trace'),
      silent: write('silent'),
      child(childBindings, options) {
        made.push({ bindings: childBindings, options });
        return logger({ ...bindings, ...childBindings }, options?.level ?? levelNow);
      },
    } as FastifyBaseLogger;
  };
  return { parent: logger({}, level), made, written };
}

describe('the lazy request logger', () => {
  it('makes no child logger for a request that logs nothing', () => {
    const { parent, made } = recordingParent();
    const log = lazyChildLoggerFactory(parent, { reqId: 'req-1' }, {}, {} as never);
    expect(log.level).toBe('info');
    expect(made).toEqual([]);
  });

  it('makes the child once, at the first line, with the request id, and writes every line through it', () => {
    const { parent, made, written } = recordingParent();
    const log = new LazyChildLogger(parent, { reqId: 'req-7' }, { level: 'debug' });
    expect(log.level).toBe('debug');
    log.info({ a: 1 }, 'first');
    log.error(new Error('boom'), 'second');
    log.debug('third');
    expect(made).toEqual([{ bindings: { reqId: 'req-7' }, options: { level: 'debug' } }]);
    expect(written.map(({ level, bindings }) => [level, bindings])).toEqual([
      ['info', { reqId: 'req-7' }],
      ['error', { reqId: 'req-7' }],
      ['debug', { reqId: 'req-7' }],
    ]);
    expect(written[0]?.args).toEqual([{ a: 1 }, 'first']);
  });

  it("makes the request's own children from its child, so they carry the request id too", () => {
    const { parent, made, written } = recordingParent();
    const log = new LazyChildLogger(parent, { reqId: 'req-9' }, {});
    log.child({ part: 'stream' }).warn('slow');
    expect(made.map(({ bindings }) => bindings)).toEqual([{ reqId: 'req-9' }, { part: 'stream' }]);
    expect(written).toEqual([
      { level: 'warn', args: ['slow'], bindings: { reqId: 'req-9', part: 'stream' } },
    ]);
  });

  it("sets the level on the request's child, not on the server's logger", () => {
    const { parent } = recordingParent();
    const log = new LazyChildLogger(parent, { reqId: 'req-2' }, {});
    log.level = 'warn';
    expect(log.level).toBe('warn');
    expect(parent.level).toBe('info');
  });
});
