import { describe, expect, it, vi } from 'vitest';
import { finishOnrampReturn, isOnrampReturnMessage } from './finishOnrampReturn';

function fakeWindow(href: string, opener: unknown) {
  const location = new URL(href);
  const win = {
    location: { href, origin: location.origin },
    history: { state: null, replaceState: vi.fn() },
    opener,
    close: vi.fn(),
  };
  return win;
}

describe('finishOnrampReturn', () => {
  it('does nothing without the onramp parameter', () => {
    const win = fakeWindow('http://localhost:8080/', null);
    expect(finishOnrampReturn(win as unknown as Window)).toBe(false);
    expect(win.history.replaceState).not.toHaveBeenCalled();
  });

  it('tells the opener, on this origin only, and closes the window', () => {
    const opener = { postMessage: vi.fn() };
    const win = fakeWindow('http://localhost:8080/?onramp=credited', opener);
    expect(finishOnrampReturn(win as unknown as Window)).toBe(true);
    expect(opener.postMessage).toHaveBeenCalledWith(
      { type: 'dial-onramp', outcome: 'credited' },
      'http://localhost:8080',
    );
    expect(win.close).toHaveBeenCalled();
    expect(win.history.replaceState).toHaveBeenCalledWith(null, '', '/');
  });

  it('reads anything but credited as failed, and opens the app when there is no opener', () => {
    const opener = { postMessage: vi.fn() };
    finishOnrampReturn(fakeWindow('http://localhost:8080/?onramp=x', opener) as unknown as Window);
    expect(opener.postMessage.mock.calls[0]?.[0]).toEqual({ type: 'dial-onramp', outcome: 'failed' });
    const alone = fakeWindow('http://localhost:8080/?onramp=credited&a=1', null);
    expect(finishOnrampReturn(alone as unknown as Window)).toBe(false);
    expect(alone.history.replaceState).toHaveBeenCalledWith(null, '', '/?a=1');
    expect(alone.close).not.toHaveBeenCalled();
  });
});

describe('isOnrampReturnMessage', () => {
  const event = (origin: string, data: unknown) => ({ origin, data }) as MessageEvent;
  it('accepts only our origin and the exact shape', () => {
    expect(
      isOnrampReturnMessage(
        event('http://localhost:8080', { type: 'dial-onramp', outcome: 'credited' }),
        'http://localhost:8080',
      ),
    ).toBe(true);
    expect(
      isOnrampReturnMessage(
        event('https://evil.example', { type: 'dial-onramp', outcome: 'credited' }),
        'http://localhost:8080',
      ),
    ).toBe(false);
    expect(
      isOnrampReturnMessage(
        event('http://localhost:8080', { type: 'dial-onramp', outcome: 'maybe' }),
        'http://localhost:8080',
      ),
    ).toBe(false);
    expect(isOnrampReturnMessage(event('http://localhost:8080', null), 'http://localhost:8080')).toBe(false);
  });
});
