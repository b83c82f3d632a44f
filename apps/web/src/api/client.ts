import type {
  AnyRequestErrorCode,
  ApiRoutes,
  DeclaredErrorCode,
  RequestBody,
  RequestParams,
  RequestQuery,
  Answer as RouteAnswer,
} from '@dial/api';
import { ENDPOINTS, type RouteName } from '@dial/api/endpoints';
import { DialError, errorFromBody } from '@dial/core';

export type { RouteName };

/** What a call of the route resolves with: the union of the contract's success answers. */
export type Answer<N extends RouteName> = RouteAnswer<ApiRoutes[N]>;

/** The JSON body the route takes. */
export type Body<N extends RouteName> = RequestBody<ApiRoutes[N]>;

/**
 * The codes a call of the route may reject with: those the route declares, those any request may get, and
 * the client's own `network_error` (no answer at all).
 */
export type CallErrorCode<N extends RouteName> =
  | DeclaredErrorCode<ApiRoutes[N]>
  | AnyRequestErrorCode
  | 'network_error';

/** A field of the input: left out for a route without it, optional when all of it is. */
type Field<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: never }
  : object extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

/**
 * What a call sends besides its route: the body, path parameters and query its route declares (required as
 * the contract says), and a signal to abort it.
 */
export type CallInput<N extends RouteName> = Field<'body', Body<N>> &
  Field<'params', RequestParams<ApiRoutes[N]>> &
  Field<'query', RequestQuery<ApiRoutes[N]>> & { signal?: AbortSignal | undefined };

/** The address of a route: its path parameters and query, when it has them. */
export type UrlInput<N extends RouteName> = Field<'params', RequestParams<ApiRoutes[N]>> &
  Field<'query', RequestQuery<ApiRoutes[N]>>;

/** The input as an argument: optional when nothing in it is required. */
type Optional<T> = object extends T ? [input?: T] : [input: T];

/**
 * Calls a route of the API on this origin, its method and URL from the contract (`:param`s filled in and
 * encoded, the query appended), and returns its JSON answer, typed by the contract. A state-changing route
 * without a body is sent `{}`. Error answers become the catalogue's {@link DialError} (with
 * `retryAfterSeconds` from `Retry-After`; {@link isRouteError} narrows it to a code the route declares); a
 * request that never got an answer becomes `network_error`. An aborted request rejects with the AbortError
 * as it is.
 *
 * @example
 * ```ts
 * const { user } = await callApi('me', { signal });
 * await callApi('endSession', { params: { id }, body: {} });
 * ```
 */
export async function callApi<N extends RouteName>(
  name: N,
  ...[input]: Optional<CallInput<N>>
): Promise<Answer<N>> {
  const { method } = ENDPOINTS[name];
  const path = urlOf(name, ...([input] as Optional<UrlInput<N>>));
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, credentials: 'same-origin', headers };
  const body = (input as { body?: unknown } | undefined)?.body;
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  if (input?.signal !== undefined) init.signal = input.signal;

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new DialError('network_error', { cause: error, details: `${method} ${path}` });
  }

  // 204 No Content: nothing to read (the contract's answer is `undefined`).
  if (response.status === 204) return undefined as Answer<N>;
  const answer = await readJson(response);
  if (!response.ok) throw toDialError(response, answer);
  if (answer === undefined) {
    throw new DialError('internal_error', {
      details: `${method} ${path}: HTTP ${response.status} without JSON`,
    });
  }
  // The one place the JSON is taken for what the contract says: the server serializes by the same schemas.
  return answer as Answer<N>;
}

/**
 * The URL of a route on this origin (for an EventSource, a link): its `:param`s filled in, each encoded,
 * and its query appended (entries left undefined or null are left out).
 */
export function urlOf<N extends RouteName>(name: N, ...[input]: Optional<UrlInput<N>>): string {
  const { url } = ENDPOINTS[name];
  const { params, query } = (input ?? {}) as { params?: object; query?: object };
  const path = url.replace(/:(\w+)/g, (_, key: string) => {
    const value: unknown = (params as Record<string, unknown> | undefined)?.[key];
    if (value === undefined || value === null) throw new Error(`${url}: no value for :${key}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const encoded = search.toString();
  return encoded === '' ? path : `${path}?${encoded}`;
}

/**
 * Opens the route's stream of server-sent events on this origin (with the session cookie), at
 * {@link urlOf}'s URL.
 */
export function openEventStream<N extends RouteName>(
  name: N,
  ...[input]: Optional<UrlInput<N>>
): EventSource {
  return new EventSource(urlOf(name, ...([input] as Optional<UrlInput<N>>)));
}

/**
 * Whether `error` is the route's error answer `code`. The code must be one a call of that route may reject
 * with (its declared codes, those of any request, `network_error`): a code the route cannot answer does not
 * compile.
 */
export function isRouteError<N extends RouteName, C extends CallErrorCode<N>>(
  _route: N,
  error: unknown,
  code: C,
): error is DialError & { readonly code: C } {
  return error instanceof DialError && error.code === code;
}

function toDialError(response: Response, body: unknown): DialError {
  const error = errorFromBody(body, response.status);
  const retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After'));
  // An answer that carries more than the error (proof_of_work_required's challenge) stays readable as the
  // error's cause.
  const carriesMore =
    typeof body === 'object' && body !== null && Object.keys(body).some((key) => key !== 'error');
  if (retryAfterSeconds === undefined && !carriesMore) return error;
  return new DialError(error.code, {
    message: error.message,
    details: `HTTP ${response.status}`,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    ...(carriesMore ? { cause: body } : {}),
  });
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/**
 * Reads a `Retry-After` header: delay-seconds, or an HTTP date. Returns whole seconds from now, or
 * undefined when there is no usable value.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
