import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { withLazyChildren } from '../src/http/lazyChildLogger.js';

/**
 * A pino logger writing its lines to an array, given lazy children, with a record of the child loggers pino
 * itself made (the costly part the lazy ones put off).
 */
function recordingLogger(level = 'info') {
  const lines: Array<Record<string, unknown>> = [];
  const made: object[] = [];
  const root = pino(
    {
      level,
      serializers: { secret: () => '[hidden]' },
      onChild: (child) => made.push(child.bindings()),
    },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  return { log: withLazyChildren(root), root, lines, made };
}

describe('the lazy request logger', () => {
  it('makes no pino child for a request that logs nothing', () => {
    const { log, made } = recordingLogger();
    const request = log.child({ reqId: 'req-1' }, {});
    expect(request.level).toBe('info');
    expect(made).toEqual([]);
  });

  it('makes the child once, at the first line, with the request id, and writes every line through it', () => {
    const { log, made, lines } = recordingLogger();
    const request = log.child({ reqId: 'req-7' }, { level: 'debug' });
    expect(request.level).toBe('debug');
    request.info({ a: 1, secret: 'the code' }, 'first');
    request.error(new Error('boom'), 'second');
    request.debug('third');
    request.trace('not at debug');
    expect(made).toEqual([{ reqId: 'req-7' }]);
    expect(lines.map(({ msg, reqId }) => [msg, reqId])).toEqual([
      ['first', 'req-7'],
      ['second', 'req-7'],
      ['third', 'req-7'],
    ]);
    // The root's serializers apply to its children's lines.
    expect(lines[0]).toMatchObject({ a: 1, secret: '[hidden]', level: 30 });
    expect(lines[1]).toMatchObject({ level: 50, err: { message: 'boom' } });
  });

  it("makes the request's own children lazily too, from its child, so their lines carry both bindings", () => {
    const { log, made, lines } = recordingLogger();
    const server = log.child({}, {});
    const request = server.child({ reqId: 'req-9' }, {});
    const part = request.child({ part: 'stream' });
    expect(made).toEqual([]);
    part.warn('slow');
    expect(made).toEqual([{}, { reqId: 'req-9' }, { reqId: 'req-9', part: 'stream' }]);
    expect(lines).toEqual([expect.objectContaining({ msg: 'slow', reqId: 'req-9', part: 'stream' })]);
    // The request's logger was made on the way, once: its next line makes nothing more.
    request.info('later');
    expect(made).toHaveLength(3);
    expect(lines.at(-1)).toMatchObject({ msg: 'later', reqId: 'req-9' });
    expect(lines.at(-1)).not.toHaveProperty('part');
  });

  it("takes its parent's level until it has its own, and sets a level on itself only", () => {
    const { log, root } = recordingLogger('warn');
    const request = log.child({ reqId: 'req-2' }, {});
    expect(request.level).toBe('warn');
    request.level = 'debug';
    expect(request.level).toBe('debug');
    expect(root.level).toBe('warn');
    expect(log.child({ reqId: 'req-3' }, {}).level).toBe('warn');
  });

  it("has pino's levels, which Fastify checks a route's logLevel against", () => {
    const { log } = recordingLogger();
    const server = log.child({}, {}) as unknown as { levels: { values: Record<string, number> } };
    expect(server.levels.values.warn).toBe(40);
  });
});
