import { DialError, hasControlCharacter } from '@dial/core';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Top-level body fields whose text may hold line feeds (LF, and no other control character): the
     * routes that take a Sign-In with Ethereum message, whose lines are its grammar.
     */
    multilineBodyFields?: readonly string[];
  }
}

/** Where a request carries text, as the refusal names it. */
const PARTS = [
  ['body', 'field'],
  ['query', 'query parameter'],
  ['params', 'path parameter'],
] as const;

/**
 * Refuses, once for every route, any request whose parsed JSON body, query string or path parameters hold
 * a control character (C0 including NUL, DEL, C1) in a string or a key, with `400 invalid_data` naming the
 * field. It runs in `preValidation`, after parsing and before the route's schema and handler, so no text
 * field of any route reaches the database, a log line or a mail header with one: PostgreSQL refuses NUL
 * (a 500), and mail software drops the others (`x\u0001y@example.com` was delivered to `xy@example.com`).
 * No field Dial reads has a use for them, but for a route's `config.multilineBodyFields`, named there, which
 * may hold line feeds (a SIWE message).
 *
 * Register it before the routes: a route takes the hooks present when it is built.
 */
export function registerControlCharacterCheck(app: FastifyInstance): void {
  // A plain callback: it runs on every request, and most have no text to look at (a GET without a query).
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && isEmpty(request.query) && isEmpty(request.params)) {
      done();
      return;
    }
    const multiline = request.routeOptions.config.multilineBodyFields ?? [];
    for (const [part, label] of PARTS) {
      const value = part === 'body' ? withoutLineFeeds(request.body, multiline) : request[part];
      const field = findControlCharacter(value);
      if (field === undefined) continue;
      const name = field === '' ? part : field;
      done(
        new DialError('invalid_data', {
          message: `The ${label} ${JSON.stringify(name)} holds a control character (such as NUL or a line break), which Dial does not accept. Remove it and try again.`,
          details: `control character in ${part} ${name}`,
        }),
      );
      return;
    }
    done();
  });
}

/** Whether a parsed query or path parameters object has no field (or is missing). */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  for (const _ in value as object) return false;
  return true;
}

/** A shallow copy of `body` with the line feeds of its string `fields` taken out (`body` when none apply). */
function withoutLineFeeds(body: unknown, fields: readonly string[]): unknown {
  if (fields.length === 0 || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const copy: Record<string, unknown> = { ...body };
  for (const field of fields) {
    const text = copy[field];
    if (typeof text === 'string') copy[field] = text.replaceAll('\n', '');
  }
  return copy;
}

/**
 * The path (`to`, `items[2].name`; `''` for the value itself) of a string or key holding a control
 * character in a parsed JSON value, or `undefined` when there is none. Walks with its own stack, so a deeply
 * nested body cannot overflow the call stack.
 *
 * @param value - A parsed JSON value (or a query/params object).
 */
export function findControlCharacter(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (hasControlCharacter(current)) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => {
        stack.push({ value: item, path: `${path}[${index}]` });
      });
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const itemPath = path === '' ? key : `${path}.${key}`;
        if (hasControlCharacter(key)) return itemPath;
        stack.push({ value: item, path: itemPath });
      }
    }
  }
  return undefined;
}
