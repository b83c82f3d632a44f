import { ERROR_CATALOGUE, type ErrorCode } from '@dial/core';
import { type TObject, type TProperties, type TSchema, Type } from 'typebox';
import type { RouteMethod } from './endpoints.js';

/** Codes every route may answer: a query, path or body the route cannot read (or with a control character). */
export const EVERY_ROUTE_ERRORS = ['invalid_data'] as const satisfies readonly ErrorCode[];

/**
 * Codes a state-changing request (POST, PUT, PATCH) may get before its route's own checks: another site's
 * origin, a body over the limit, a body that is not JSON.
 */
export const STATE_CHANGING_ERRORS = [
  'forbidden_origin',
  'payload_too_large',
  'unsupported_media_type',
] as const satisfies readonly ErrorCode[];

/** Codes of a route behind the session cookie. */
export const SESSION_ERRORS = ['unauthorized'] as const satisfies readonly ErrorCode[];

/** Codes of a rate-limited route: the limit reached, or (with Redis) a limit that could not be checked. */
export const RATE_LIMIT_ERRORS = [
  'too_many_requests',
  'rate_limit_unavailable',
] as const satisfies readonly ErrorCode[];

/**
 * Codes any request may get that no route declares: a failure of the server itself, and the answers the HTTP
 * server gives before any route is chosen (an unknown method or path, a request that did not arrive in time,
 * headers too large). The OpenAPI document names them once, in its description.
 */
export const ANY_REQUEST_ERRORS = [
  'internal_error',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'headers_too_large',
] as const satisfies readonly ErrorCode[];

/** `{"code","message"}`: the `error` of an error answer, its code one of `codes`. */
export function errorField(codes: readonly ErrorCode[]) {
  return Type.Object({
    code: Type.Enum([...codes], {
      description: 'A code of the error catalogue (packages/core/src/errors.ts).',
    }),
    message: Type.String({ description: 'A message a person can act on.' }),
  });
}

/**
 * `{"error":{"code","message"}}` with a code of `codes` (all of one HTTP status), and `extra` properties
 * beside `error` for an answer that carries more.
 */
export function errorBody<const P extends TProperties>(
  codes: readonly ErrorCode[],
  extra?: P,
  description = 'An error from the catalogue.',
) {
  return Type.Object({ error: errorField(codes), ...(extra ?? ({} as P)) }, { description });
}

/**
 * The error answer of a JSON-RPC route (`POST /api/paymaster`): a JSON-RPC 2.0 error whose `data.code` is
 * the catalogue's code (its `code` a JSON-RPC number), or, for a refusal before the route's own handler (the
 * origin check, the session, the body's schema), the usual `{"error":{"code","message"}}`. Both serialize
 * through it; {@link errorCodesOf} reads its codes from `data.code`.
 */
export function jsonRpcErrorBody(codes: readonly ErrorCode[]) {
  return Type.Object(
    {
      jsonrpc: Type.Optional(Type.Literal('2.0')),
      id: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
      error: Type.Object({
        code: Type.Union([
          Type.Integer({ description: 'The JSON-RPC error code.' }),
          Type.String({ description: 'A catalogue code, for a refusal before the JSON-RPC handler.' }),
        ]),
        message: Type.String({ description: 'A message a person can act on.' }),
        data: Type.Optional(
          Type.Object({
            code: Type.Enum([...codes], {
              description: 'A code of the error catalogue (packages/core/src/errors.ts).',
            }),
          }),
        ),
      }),
    },
    { description: 'A JSON-RPC error whose `data.code` is from the catalogue.' },
  );
}

/** What a route file declares. */
export interface RouteSpec {
  method: RouteMethod;
  /** Fastify's form: `/api/activity/:id`. */
  url: string;
  tags: readonly string[];
  summary: string;
  /** Behind the session cookie: `security` says so, and `unauthorized` is declared. */
  session?: boolean;
  body?: TSchema;
  querystring?: TSchema;
  params?: TSchema;
  /**
   * The answers by status: the successes, and the error statuses whose body carries more than
   * `{"error"}` (built with {@link errorBody}). Every other error status is built from `errors`.
   */
  response: Record<number, TSchema>;
  /**
   * The codes the route's own checks and handler may answer, beyond those every route, every
   * state-changing route and every session route declares ({@link EVERY_ROUTE_ERRORS},
   * {@link STATE_CHANGING_ERRORS}, {@link SESSION_ERRORS}).
   */
  errors: readonly ErrorCode[];
}

/** The Fastify `schema` of a route: what the server validates, serializes and documents. */
export type RouteSchema<S extends RouteSpec> = {
  tags: string[];
  summary: string;
  security?: Array<Record<string, string[]>>;
  /**
   * Typed with the declared answers only: error answers are thrown (a `DialError`), never sent by a
   * handler, and their schemas (one per status, added at run time) would blur the types of the others.
   */
  response: S['response'];
} & (S['body'] extends TSchema ? { body: S['body'] } : unknown) &
  (S['querystring'] extends TSchema ? { querystring: S['querystring'] } : unknown) &
  (S['params'] extends TSchema ? { params: S['params'] } : unknown);

/**
 * Every code a route declared as `S` may answer: its own, and those every route of its kind answers (not
 * {@link ANY_REQUEST_ERRORS}).
 */
export type RouteErrorCode<S extends RouteSpec> =
  | (typeof EVERY_ROUTE_ERRORS)[number]
  | (S['method'] extends 'GET' ? never : (typeof STATE_CHANGING_ERRORS)[number])
  | (S['session'] extends true ? (typeof SESSION_ERRORS)[number] : never)
  | S['errors'][number];

/** The names of a URL's path parameters: `id` for `/api/activity/:id`. */
export type UrlParamNames<U extends string> = U extends `${string}:${infer P}/${infer Rest}`
  ? P | UrlParamNames<`/${Rest}`>
  : U extends `${string}:${infer P}`
    ? P
    : never;

type ParamsNames<S extends RouteSpec> = S['params'] extends TObject<infer P> ? keyof P & string : never;

/**
 * Holds when the route's `params` schema names exactly its URL's `:param`s; otherwise asks for a `params`
 * that does, so a URL changed without its parameters does not compile.
 */
type ParamsOfUrl<S extends RouteSpec> = [UrlParamNames<S['url']>] extends [ParamsNames<S>]
  ? [ParamsNames<S>] extends [UrlParamNames<S['url']>]
    ? unknown
    : { params: `the params must be those the URL names: ${UrlParamNames<S['url']>}` }
  : { params: `the params must be those the URL names: ${UrlParamNames<S['url']>}` };

/** One route of the API contract. */
export interface ApiRoute<S extends RouteSpec = RouteSpec> {
  method: S['method'];
  url: S['url'];
  /** Every code the route may answer, sorted (the automatic ones included; not {@link ANY_REQUEST_ERRORS}). */
  errors: readonly RouteErrorCode<S>[];
  schema: RouteSchema<S>;
}

/**
 * Declares a route: its schemas, and its error answers built from its codes (one body per HTTP status, whose
 * `code` is an enum of that status's codes), so the OpenAPI document lists per route and status the codes it
 * may answer.
 *
 * @throws {Error} When an error body declared in `response` does not name exactly its status's codes, or a
 *   status in `response` has no declared code: the contract must not contradict itself.
 * @example
 * ```ts
 * export const meRoute = defineRoute({
 *   method: 'GET', url: '/api/me', tags: ['session'], summary: 'The signed-in user.', session: true,
 *   response: { 200: Type.Object({ user: UserSchema }) }, errors: [],
 * });
 * ```
 */
export function defineRoute<const S extends RouteSpec>(spec: S & ParamsOfUrl<S>): ApiRoute<S> {
  const where = `${spec.method} ${spec.url}`;
  const named = (spec.url.match(/:\w+/g) ?? []).map((param) => param.slice(1)).sort();
  const declared = Object.keys((spec.params as Partial<TObject> | undefined)?.properties ?? {}).sort();
  if (named.join() !== declared.join()) {
    throw new Error(`${where}: the URL names [${named.join(', ')}], its params are [${declared.join(', ')}]`);
  }
  const errors = [
    ...new Set<ErrorCode>([
      ...EVERY_ROUTE_ERRORS,
      ...(spec.method === 'GET' ? [] : STATE_CHANGING_ERRORS),
      ...(spec.session === true ? SESSION_ERRORS : []),
      ...spec.errors,
    ]),
  ].sort();
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errors) {
    const { status } = ERROR_CATALOGUE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }

  const response: Record<number, TSchema> = { ...spec.response };
  for (const [status, schema] of Object.entries(spec.response)) {
    if (Number(status) < 400) continue;
    const declared = errorCodesOf(schema);
    const expected = byStatus.get(Number(status)) ?? [];
    if (declared.join() !== expected.join()) {
      throw new Error(
        `${where}: the ${status} body names [${declared.join(', ')}], its codes are [${expected.join(', ')}]`,
      );
    }
  }
  for (const [status, codes] of byStatus) {
    response[status] ??= errorBody(codes);
  }

  const schema = {
    tags: [...spec.tags],
    summary: spec.summary,
    ...(spec.session === true ? { security: [{ session: [] }] } : {}),
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(spec.querystring === undefined ? {} : { querystring: spec.querystring }),
    ...(spec.params === undefined ? {} : { params: spec.params }),
    response,
  };
  return {
    method: spec.method,
    url: spec.url,
    errors: errors as RouteErrorCode<S>[],
    schema: schema as unknown as RouteSchema<S>,
  };
}

/**
 * The codes an error answer's schema allows (its `error.code` enum), sorted; none for a schema that is not
 * an error body. Reads a schema of the contract or its JSON form in the OpenAPI document alike.
 */
export function errorCodesOf(schema: unknown): ErrorCode[] {
  const error = (schema as Partial<TObject> | undefined)?.properties?.error as Partial<TObject> | undefined;
  const data = error?.properties?.data as Partial<TObject> | undefined;
  // A JSON-RPC error body (jsonRpcErrorBody) names its codes in `data.code`.
  const values =
    (error?.properties?.code as { enum?: unknown } | undefined)?.enum ??
    (data?.properties?.code as { enum?: unknown } | undefined)?.enum;
  return Array.isArray(values) ? (values as ErrorCode[]).slice().sort() : [];
}
