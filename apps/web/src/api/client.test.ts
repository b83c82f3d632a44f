import { DialError } from '@dial/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callApi, isRouteError, openEventStream, parseRetryAfter, urlOf } from './client';

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

const PROOF = { signature: '0x00', challenge: 'challenge' } as const;

describe('callApi', () => {
  it('posts JSON to the route’s URL on the same origin and returns the answer', async () => {
    const fetch = stubFetch(async () => json({ ok: true, resendAfterSeconds: 30 }));
    const answer = await callApi('otpStart', { body: { channel: 'sms', to: '+447400123456' } });

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
    await callApi('me');
    const init = fetch.mock.calls[0]![1]!;
    expect(init.body).toBeUndefined();
    expect(init.headers).toEqual({ Accept: 'application/json' });
  });

  it('turns an error body into the DialError of its code, with the message sent', async () => {
    stubFetch(async () =>
      json({ error: { code: 'invalid_code', message: 'That code is not right.' } }, { status: 400 }),
    );
    const error = await callApi('otpVerify', {
      body: { channel: 'sms', to: '+447400123456', code: '000000' },
    }).catch((e: unknown) => e);
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
    const error = await callApi('otpStart', { body: { channel: 'sms', to: '+447400123456' } }).catch(
      (e: unknown) => e,
    );
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
    const error = await callApi('otpStart', { body: { channel: 'email', to: 'a@example.com' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DialError);
    expect(error).toMatchObject({ code: 'proof_of_work_required', message: 'Check first.', cause: body });
  });

  it('maps an answer without a catalogue error to internal_error', async () => {
    stubFetch(async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await callApi('config').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialError);
    expect((error as DialError).code).toBe('internal_error');
  });

  it('maps a request that got no answer to network_error, keeping the cause', async () => {
    const cause = new TypeError('Failed to fetch');
    stubFetch(async () => {
      throw cause;
    });
    const error = await callApi('me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialError);
    expect(error).toMatchObject({ code: 'network_error', cause });
  });

  it('lets an aborted request reject with its AbortError', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    stubFetch(async () => {
      throw abort;
    });
    await expect(callApi('me', { signal: AbortSignal.abort() })).rejects.toBe(abort);
  });

  it('answers undefined for 204 No Content, and sends `{}` to a state-changing route without a body', async () => {
    const fetch = stubFetch(async () => new Response(null, { status: 204 }));
    await expect(callApi('recoveryFailed')).resolves.toBeUndefined();
    expect(fetch.mock.calls[0]![0]).toBe('/api/wallet/recovery/failed');
    expect(fetch.mock.calls[0]![1]).toMatchObject({ method: 'POST', body: '{}' });
  });

  it('sends PUT with its JSON body', async () => {
    const fetch = stubFetch(async () => json({ address: '0x1', generation: 2 }));
    const body = { expectedGeneration: 1, address: '0x1', authShare: 'c2hhcmU=', proof: PROOF };
    await callApi('rotateShares', { body });
    expect(fetch.mock.calls[0]![1]).toMatchObject({ method: 'PUT', body: JSON.stringify(body) });
  });

  it('fills in path parameters, encoded, and sends the method of the route', async () => {
    const fetch = stubFetch(async () => json({ ok: true }));
    await callApi('endSession', { params: { id: 'a/b c?d' }, body: {} });
    expect(fetch.mock.calls[0]![0]).toBe('/api/auth/sessions/a%2Fb%20c%3Fd/end');
    await callApi('updateMethod', { params: { id: 'm1' }, body: { findable: true } });
    expect(fetch.mock.calls[1]![0]).toBe('/api/auth/methods/m1');
    expect(fetch.mock.calls[1]![1]).toMatchObject({ method: 'PATCH', body: '{"findable":true}' });
  });

  it('appends the query, encoded, leaving out what is undefined', async () => {
    const fetch = stubFetch(async () => json({ items: [], nextCursor: null }));
    await callApi('listActivity', { query: { limit: 20, cursor: 'a+b/c=', chainId: undefined } });
    expect(fetch.mock.calls[0]![0]).toBe('/api/activity?limit=20&cursor=a%2Bb%2Fc%3D');
    await callApi('listActivity', { query: {} });
    expect(fetch.mock.calls[1]![0]).toBe('/api/activity');
    await callApi('lookupRecipient', { query: { phone: '+447400123456' } });
    expect(fetch.mock.calls[2]![0]).toBe('/api/users/lookup?phone=%2B447400123456');
  });

  it('rejects a successful answer that is not JSON as internal_error', async () => {
    stubFetch(async () => new Response('ok', { status: 200 }));
    const error = await callApi('health').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialError);
    expect((error as DialError).code).toBe('internal_error');
  });
});

describe('urlOf', () => {
  it('builds a route’s URL with its parameters and query, for links and streams', () => {
    expect(urlOf('walletEvents')).toBe('/api/events');
    expect(urlOf('walletEvents', { query: { after: '42' } })).toBe('/api/events?after=42');
    expect(urlOf('cancelAccountChange', { params: { id: 'x y' } })).toBe('/api/account/changes/x%20y/cancel');
  });

  it('refuses a path parameter left out', () => {
    expect(() => urlOf('checkTransfer', { params: {} as { id: string } })).toThrow(
      '/api/activity/:id: no value for :id',
    );
  });
});

describe('openEventStream', () => {
  it('opens an EventSource at the route’s URL', () => {
    const opened: string[] = [];
    vi.stubGlobal(
      'EventSource',
      class {
        constructor(url: string) {
          opened.push(url);
        }
      },
    );
    openEventStream('walletEvents', { query: { after: '7' } });
    expect(opened).toEqual(['/api/events?after=7']);
  });
});

describe('isRouteError', () => {
  it('is true for the DialError of that code only', () => {
    const error = new DialError('proof_of_work_required');
    expect(isRouteError('otpStart', error, 'proof_of_work_required')).toBe(true);
    expect(isRouteError('otpStart', error, 'code_recently_sent')).toBe(false);
    expect(isRouteError('otpStart', new Error('proof_of_work_required'), 'proof_of_work_required')).toBe(
      false,
    );
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
