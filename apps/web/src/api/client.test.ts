import { DialError } from '@dial/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRetryAfter, requestJson } from './client';

function stubFetch(answer: () => Promise<Response>) {
  const fetch = vi.fn<typeof globalThis.fetch>(answer);
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('requestJson', () => {
  it('posts JSON to the same origin and returns the answer', async () => {
    const fetch = stubFetch(async () => json({ ok: true, resendAfterSeconds: 30 }));
    const answer = await requestJson('POST', '/api/auth/otp/start', {
      body: { channel: 'sms', to: '+447400123456' },
    });

    expect(answer).toEqual({ ok: true, resendAfterSeconds: 30 });
    expect(fetch).toHaveBeenCalledOnce();
    const [path, init] = fetch.mock.calls[0]!;
    expect(path).toBe('/api/auth/otp/start');
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: '{"channel":"sms","to":"+447400123456"}',
    });
  });

  it('sends no body and no Content-Type on a GET', async () => {
    const fetch = stubFetch(async () => json({ user: { id: 'u1' } }));
    await requestJson('GET', '/api/me');
    const init = fetch.mock.calls[0]![1]!;
    expect(init.body).toBeUndefined();
    expect(init.headers).toEqual({ Accept: 'application/json' });
  });

  it('turns an error body into the DialError of its code, with the message sent', async () => {
    stubFetch(async () =>
      json({ error: { code: 'invalid_code', message: 'That code is not right.' } }, { status: 400 }),
    );
    const error = await requestJson('POST', '/api/auth/otp/verify', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialError);
    expect(error).toMatchObject({ code: 'invalid_code', status: 400, message: 'That code is not right.' });
  });

  it('reads Retry-After into retryAfterSeconds on 429', async () => {
    stubFetch(async () =>
      json(
        { error: { code: 'too_many_requests', message: 'Too many attempts.' } },
        { status: 429, headers: { 'Retry-After': '42' } },
      ),
    );
    const error = await requestJson('POST', '/api/auth/otp/start', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialError);
    expect(error).toMatchObject({
      code: 'too_many_requests',
      retryAfterSeconds: 42,
      message: 'Too many attempts.',
    });
  });

  it('keeps an error answer that carries more than the error (a challenge) as the error’s cause', async () => {
    const body = {
      error: { code: 'proof_of_work_required', message: 'Check first.' },
      challenge: { parameters: { algorithm: 'PBKDF2/SHA-256' }, signature: 'ab' },
    };
    stubFetch(async () => json(body, { status: 403 }));
    const error = await requestJson('POST', '/api/auth/otp/start', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialError);
    expect(error).toMatchObject({ code: 'proof_of_work_required', message: 'Check first.', cause: body });
  });

  it('maps an answer without a catalogue error to internal_error', async () => {
    stubFetch(async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await requestJson('GET', '/api/config').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialError);
    expect((error as DialError).code).toBe('internal_error');
  });

  it('maps a request that got no answer to network_error, keeping the cause', async () => {
    const cause = new TypeError('Failed to fetch');
    stubFetch(async () => {
      throw cause;
    });
    const error = await requestJson('GET', '/api/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialError);
    expect(error).toMatchObject({ code: 'network_error', cause });
  });

  it('lets an aborted request reject with its AbortError', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    stubFetch(async () => {
      throw abort;
    });
    await expect(requestJson('GET', '/api/me')).rejects.toBe(abort);
  });

  it('answers undefined for 204 No Content', async () => {
    stubFetch(async () => new Response(null, { status: 204 }));
    await expect(requestJson('POST', '/api/wallet/recovery/failed', { body: {} })).resolves.toBeUndefined();
  });

  it('sends PUT with its JSON body', async () => {
    const fetch = stubFetch(async () => json({ generation: 2 }));
    await requestJson('PUT', '/api/wallet/shares', { body: { expectedGeneration: 1 } });
    expect(fetch.mock.calls[0]![1]).toMatchObject({ method: 'PUT', body: '{"expectedGeneration":1}' });
  });

  it('rejects a successful answer that is not JSON as internal_error', async () => {
    stubFetch(async () => new Response('ok', { status: 200 }));
    const error = await requestJson('GET', '/api/health').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialError);
    expect((error as DialError).code).toBe('internal_error');
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120')).toBe(120);
  });

  it('reads an HTTP date as the seconds left until it', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:01:30 GMT', now)).toBe(90);
  });

  it('ignores a missing or unreadable value', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
