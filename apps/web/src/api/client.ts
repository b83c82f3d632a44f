import { DialError, errorFromBody } from '@dial/core';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH';

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * Calls the Dial API on this origin and returns its JSON answer. Error answers become the catalogue's
 * {@link DialError} (with `retryAfterSeconds` from `Retry-After` on 429); a request that never got an
 * answer becomes `network_error`. An aborted request rejects with the AbortError as it is.
 */
export async function requestJson<T>(
  method: HttpMethod,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, credentials: 'same-origin', headers };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  if (options.signal !== undefined) init.signal = options.signal;

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new DialError('network_error', { cause: error, details: `${method} ${path}` });
  }

  // 204 No Content: nothing to read (callers of such routes expect `undefined`).
  if (response.status === 204) return undefined as T;
  const body = await readJson(response);
  if (!response.ok) throw toDialError(response, body);
  if (body === undefined) {
    throw new DialError('internal_error', {
      details: `${method} ${path}: HTTP ${response.status} without JSON`,
    });
  }
  return body as T;
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
