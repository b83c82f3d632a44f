import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySerializerCompiler } from 'fastify';

/** A route's response schema for one status, as Fastify hands it to its serializer compiler. */
type RouteSchema = Parameters<FastifySerializerCompiler<unknown>>[0];

/**
 * Fastify's serializer compiler (fast-json-stringify, with the options Fastify uses: Dial adds no shared
 * schemas), made lazy: each route's serializer for a status is compiled when the route first answers with
 * it, not at start. Fastify compiles all of them before the server listens (generated code for some 300
 * route and status pairs), a tenth of a production cold start, though most are error answers a server may
 * never give. The serializer is the same one either way; `compileEveryResponseSchema` in the tests compiles
 * them all, so a broken schema still fails CI rather than a request.
 */
export function lazySerializerCompiler(
  compile: FastifySerializerCompiler<unknown> = defaultSerializerCompiler(),
): FastifySerializerCompiler<unknown> {
  return (route: RouteSchema) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      serialize ??= compile(route);
      return serialize(data);
    };
  };
}

/** The compiler Fastify uses by default, with no shared schemas and its default options. */
export function defaultSerializerCompiler(): FastifySerializerCompiler<unknown> {
  const compile = SerializerSelector()({}, {});
  // Fastify always gives the status of a response schema (`httpStatus`), which the compiler's type requires.
  return (route) => compile(route as Parameters<typeof compile>[0]);
}
