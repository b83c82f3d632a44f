import type { SessionInfo } from '../api/types';
import { ErrorMessage } from '../ui/ErrorMessage';
import { endOtherSessions, endSession, logoutEverywhere } from './accountApi';
import { formatMoment } from './describeMethod';
import { currentFirst, describeSignIn } from './describeSession';
import { useAccountAction } from './useAccountAction';
import type { AccountData } from './useAccountData';

interface SessionsProps {
  data: AccountData<SessionInfo[]>;
  reload(): void;
  onSessionEnded(): void;
  /** Tells the screen's status line what was done. */
  announce(message: string): void;
  /** Every session ended, this one too: back to sign-in. */
  onSignedOutEverywhere(): void;
}

/** "Where you're signed in": the person's sessions, this browser's marked; end one, the others, or all. */
export function Sessions({ data, reload, onSessionEnded, announce, onSignedOutEverywhere }: SessionsProps) {
  const action = useAccountAction(reload, onSessionEnded);

  const end = async (session: SessionInfo) => {
    announce('');
    if (await action.run(session.id, () => endSession(session.id))) {
      announce(`The session on ${session.device} is ended: it is signed out.`);
    }
  };
  const endOthers = async () => {
    announce('');
    let ended = 0;
    const done = await action.run('others', async () => {
      ended = await endOtherSessions();
    });
    if (done) {
      announce(
        ended === 0
          ? 'There were no other sessions.'
          : `${ended} other ${ended === 1 ? 'session is' : 'sessions are'} ended.`,
      );
    }
  };
  const signOutEverywhere = async () => {
    announce('');
    if (await action.run('everywhere', logoutEverywhere)) onSignedOutEverywhere();
  };

  const sessions = data.status === 'ready' ? currentFirst(data.value) : [];
  const others = sessions.filter((session) => !session.current).length;

  return (
    <section className="panel settings-section" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you’re signed in</h2>
      <p className="hint">Ending a session signs that browser out at once.</p>

      {data.status === 'loading' && <p role="status">Loading your sessions…</p>}
      {data.status === 'failed' && (
        <>
          <ErrorMessage error={data.error} />
          <button type="button" className="button button-secondary" onClick={reload}>
            Try again
          </button>
        </>
      )}
      {data.status === 'ready' &&
        (sessions.length === 0 ? (
          <p>No sessions.</p>
        ) : (
          <ul className="settings-list" aria-label="Sessions">
            {sessions.map((session) => (
              <li key={session.id} className="settings-item">
                <p className="settings-value">
                  {session.device}
                  {session.current && <span className="settings-badge">This browser</span>}
                </p>
                <p className="hint">
                  {describeSignIn(session.method)} · started {formatMoment(session.createdAt)} · last seen{' '}
                  {formatMoment(session.lastSeenAt)}
                </p>
                {!session.current && (
                  <button
                    type="button"
                    className="button button-link"
                    aria-label={`End the session on ${session.device}, started ${formatMoment(session.createdAt)}`}
                    aria-disabled={action.pending !== null}
                    onClick={() => void end(session)}
                  >
                    {action.pending === session.id ? 'Ending…' : 'End'}
                  </button>
                )}
              </li>
            ))}
          </ul>
        ))}
      {action.error !== null && <ErrorMessage error={action.error} />}
      <div className="actions">
        {others > 0 && (
          <button
            type="button"
            className="button button-secondary"
            aria-disabled={action.pending !== null}
            onClick={() => void endOthers()}
          >
            {action.pending === 'others' ? 'Ending…' : 'End all other sessions'}
          </button>
        )}
        <button
          type="button"
          className="button button-secondary"
          aria-disabled={action.pending !== null}
          onClick={() => void signOutEverywhere()}
        >
          {action.pending === 'everywhere' ? 'Signing out…' : 'Sign out everywhere'}
        </button>
      </div>
    </section>
  );
}
