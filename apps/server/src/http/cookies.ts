import { parseCookie, type SerializeOptions, stringifySetCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A cookie's attributes (`HttpOnly`, `SameSite`, `Path`, `Secure`, `Expires`, `Max-Age`, …). */
export type CookieOptions = Omit<SerializeOptions, 'encode'>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's cookies by name, read from its `Cookie` header the first time they are asked for. */
    readonly cookies: Readonly<Record<string, string | undefined>>;
  }
  interface FastifyReply {
    /**
     * Adds a `Set-Cookie` to this answer; a later one for the same name, domain and path replaces it.
     * `SameSite` is `Lax` unless the options say otherwise.
     */
    setCookie(name: string, value: string, options: CookieOptions): FastifyReply;
    /** Tells the browser to drop a cookie: empty, expired (`Max-Age=0`, `Expires` in 1970), same path. */
    clearCookie(name: string, options: CookieOptions): FastifyReply;
  }
}

const PARSED = Symbol('dial.cookies');
const SET = Symbol('dial.setCookies');

interface CookieRequest {
  [PARSED]: Record<string, string | undefined> | null;
}
interface CookieReply {
  [SET]: Map<string, string> | null;
}

/**
 * `request.cookies`, `reply.setCookie` and `reply.clearCookie`, without a hook on every request: the `Cookie`
 * header is parsed when a route first reads `request.cookies` (most requests, such as health checks and the
 * app's files, never do), and a cookie set is written into the answer's headers at once. `@fastify/cookie`,
 * which this replaces, parsed every request's cookies in an `onRequest` hook and wrote them in an `onSend`
 * hook: up to a microsecond of each signed-in request (docs/BENCHMARKS.md).
 */
export function registerCookies(app: FastifyInstance): void {
  app.decorateRequest(PARSED, null);
  app.decorateRequest('cookies', {
    getter(this: FastifyRequest) {
      const request = this as FastifyRequest & CookieRequest;
      let cookies = request[PARSED];
      if (cookies === null) {
        const header = request.headers.cookie;
        cookies = header === undefined ? {} : parseCookie(header);
        request[PARSED] = cookies;
      }
      return cookies;
    },
  });
  app.decorateReply(SET, null);
  app.decorateReply(
    'setCookie',
    function (this: FastifyReply, name: string, value: string, options: CookieOptions) {
      return setCookie(this as FastifyReply & CookieReply, name, value, options);
    },
  );
  app.decorateReply('clearCookie', function (this: FastifyReply, name: string, options: CookieOptions) {
    return setCookie(this as FastifyReply & CookieReply, name, '', {
      ...options,
      expires: new Date(0),
      maxAge: 0,
    });
  });
}

function setCookie(
  reply: FastifyReply & CookieReply,
  name: string,
  value: string,
  options: CookieOptions,
): FastifyReply {
  let cookies = reply[SET];
  if (cookies === null) {
    cookies = new Map();
    reply[SET] = cookies;
  }
  cookies.set(
    `${name};${options.domain ?? ''};${options.path ?? '/'}`,
    stringifySetCookie(name, value, {
      sameSite: 'lax',
      ...options,
    }),
  );
  reply.removeHeader('set-cookie');
  return reply.header('set-cookie', [...cookies.values()]);
}
