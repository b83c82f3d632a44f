import { isDialError } from '@dial/core';
import { useEffect, useRef, useState } from 'react';
import type { Notice } from '../api/types';
import { describeNotice, isNewNotice } from '../notices/describeNotice';
import { listNotices, markNoticesRead } from '../notices/noticesApi';
import { ErrorMessage } from '../ui/ErrorMessage';
import { formatMoment } from './describeMethod';
import { LoadStatus } from './LoadStatus';

/** Notices a page: the newest few first, older ones on demand. */
const PAGE_SIZE = 10;

type NoticesState =
  | { status: 'loading' }
  | { status: 'failed'; error: unknown }
  | { status: 'ready'; notices: Notice[]; nextCursor: string | null; unreadAtOpen: number };

interface NoticesProps {
  /** The server no longer knows this session: back to sign-in. */
  onSessionEnded(): void;
}

/**
 * "Security notices": what the account's phones and e-mail addresses were told (and all a wallet-only
 * account is told), newest first, the unread ones marked "New". Opening the list marks them read, up to the
 * newest shown (one that comes meanwhile stays unread). The wallet home's banner leads here
 * (`/settings#notices`), and then the list takes the focus.
 */
export function Notices({ onSessionEnded }: NoticesProps) {
  const [state, setState] = useState<NoticesState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [more, setMore] = useState<{ loading: boolean; error: unknown }>({ loading: false, error: null });
  const heading = useRef<HTMLHeadingElement>(null);
  const ended = useRef(onSessionEnded);
  ended.current = onSessionEnded;

  // Led here by the wallet home's banner: the list takes the focus once it has loaded (after the screen's
  // heading took it on mount).
  const focusWhenLoaded = useRef(window.location.hash === '#notices');
  useEffect(() => {
    if (state.status === 'loading' || !focusWhenLoaded.current) return;
    focusWhenLoaded.current = false;
    heading.current?.focus();
  }, [state.status]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger for a reload.
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    listNotices({ limit: PAGE_SIZE, signal }).then(
      (page) => {
        if (signal.aborted) return;
        setState({
          status: 'ready',
          notices: page.notices,
          nextCursor: page.nextCursor,
          unreadAtOpen: page.unread,
        });
        const newest = page.notices[0];
        if (page.unread > 0 && newest !== undefined) {
          markNoticesRead(newest.id).catch(() => {
            // Still unread: the banner shows them again, and the next visit marks them.
          });
        }
      },
      (error: unknown) => {
        if (signal.aborted) return;
        if (isDialError(error, 'unauthorized')) ended.current();
        else setState({ status: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const showOlder = async () => {
    if (state.status !== 'ready' || state.nextCursor === null || more.loading) return;
    setMore({ loading: true, error: null });
    try {
      const page = await listNotices({ limit: PAGE_SIZE, cursor: state.nextCursor });
      setState({ ...state, notices: [...state.notices, ...page.notices], nextCursor: page.nextCursor });
      setMore({ loading: false, error: null });
    } catch (error) {
      if (isDialError(error, 'unauthorized')) ended.current();
      else setMore({ loading: false, error });
    }
  };

  return (
    <section className="panel settings-section" aria-labelledby="notices-title" id="notices">
      <h2 id="notices-title" ref={heading} tabIndex={-1}>
        Security notices
      </h2>
      <p className="hint">
        What your phone numbers and email addresses were told about your account. Was something not you? Use
        “Secure my account” above.
      </p>

      <LoadStatus
        data={state}
        loading="Loading your notices…"
        reload={() => {
          setState({ status: 'loading' });
          setAttempt((n) => n + 1);
        }}
      />
      {state.status === 'ready' &&
        (state.notices.length === 0 ? (
          <p>No notices yet: nothing has changed on your account’s security.</p>
        ) : (
          <ul className="settings-list" aria-label="Security notices, newest first">
            {state.notices.map((notice, index) => {
              const { title, detail } = describeNotice(notice);
              return (
                <li key={notice.id} className="settings-item">
                  <p className="settings-value">
                    {title}
                    {isNewNotice(notice, index, state.unreadAtOpen) && (
                      <span className="notice-new">New</span>
                    )}
                  </p>
                  {detail !== null && <p className="break-anywhere">{detail}</p>}
                  <p className="hint">
                    <time dateTime={notice.createdAt}>{formatMoment(notice.createdAt)}</time>
                  </p>
                </li>
              );
            })}
          </ul>
        ))}
      {more.error !== null && <ErrorMessage error={more.error} />}
      {state.status === 'ready' && state.nextCursor !== null && (
        <div className="actions">
          <button
            type="button"
            className="button button-secondary"
            aria-disabled={more.loading}
            onClick={() => void showOlder()}
          >
            {more.loading ? 'Loading…' : 'Show older notices'}
          </button>
        </div>
      )}
    </section>
  );
}
