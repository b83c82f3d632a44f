import { describe, expect, it } from 'vitest';
import { closeScreen, openScreen, replaceScreen } from './navigate';
import { screenAt } from './routes';

/** A browser history: entries, the current one, and `go` as Back and Forward. */
function fakeWindow(path: string) {
  const entries: { state: unknown; url: URL }[] = [{ state: null, url: new URL(path, 'http://localhost') }];
  let current = 0;
  const events: string[] = [];
  const win = {
    get location() {
      return entries[current]!.url;
    },
    history: {
      get state() {
        return entries[current]!.state;
      },
      pushState(state: unknown, _title: string, url: string) {
        entries.splice(current + 1, entries.length, { state, url: new URL(url, 'http://localhost') });
        current++;
      },
      replaceState(state: unknown, _title: string, url: string) {
        entries[current] = { state, url: new URL(url, 'http://localhost') };
      },
      go(delta: number) {
        current = Math.min(entries.length - 1, Math.max(0, current + delta));
        events.push('popstate');
      },
    },
    dispatchEvent(event: Event) {
      events.push(event.type);
      return true;
    },
  };
  const paths = () => entries.map((entry) => entry.url.pathname + entry.url.search);
  return { win: win as unknown as Window, paths, current: () => current, events };
}

describe('openScreen and closeScreen', () => {
  it('goes back to the entry a screen was opened from, past all its steps', () => {
    const { win, paths, current } = fakeWindow('/');
    openScreen('/send', win);
    openScreen('/send/review', win);
    expect(paths()).toEqual(['/', '/send', '/send/review']);
    closeScreen('/send', '/', win);
    expect(current()).toBe(0);
    expect(win.location.pathname).toBe('/');
  });

  it('goes back one step within a screen', () => {
    const { win } = fakeWindow('/receive');
    openScreen('/send', win);
    openScreen('/send/review', win);
    closeScreen('/send/review', '/send', win);
    expect(win.location.pathname).toBe('/send');
    closeScreen('/send', '/', win);
    expect(win.location.pathname).toBe('/receive');
  });

  it('replaces the entry with the fallback when the screen was not opened from the app (a link)', () => {
    const { win, paths, events } = fakeWindow('/send?to=%2B447400123456');
    closeScreen('/send', '/', win);
    expect(paths()).toEqual(['/']);
    expect(events).toEqual(['dial-location-changed']);
    // The new entry is the app's, with nothing below it.
    openScreen('/receive', win);
    closeScreen('/receive', '/', win);
    expect(paths()).toEqual(['/', '/receive']);
    expect(win.location.pathname).toBe('/');
  });

  it('keeps what is below an entry when it is replaced', () => {
    const { win } = fakeWindow('/');
    openScreen('/send?to=0xabc', win);
    replaceScreen('/send', win);
    closeScreen('/send', '/', win);
    expect(win.location.pathname).toBe('/');
  });

  it('ignores history state that is not the app’s', () => {
    const { win, paths } = fakeWindow('/security/export');
    win.history.replaceState({ dial: { below: [1, 2] } }, '', '/security/export');
    closeScreen('/security/export', '/security', win);
    expect(paths()).toEqual(['/security']);
  });
});

describe('screenAt', () => {
  it('names the screen at a path, ignoring a trailing slash', () => {
    expect(screenAt('/')).toBe('home');
    expect(screenAt('/send')).toBe('send');
    expect(screenAt('/send/')).toBe('send');
    expect(screenAt('/send/review')).toBe('send-review');
    expect(screenAt('/security/export')).toBe('export');
  });

  it('is null for a path no screen has', () => {
    expect(screenAt('/nowhere')).toBeNull();
    expect(screenAt('/sendx')).toBeNull();
    expect(screenAt('//')).toBe('home');
  });
});
