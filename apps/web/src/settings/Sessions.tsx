import { describeAskedChange } from '../account/describeAccountChange';
import type { SessionInfo } from '../api/types';
import { ErrorMessage } from '../ui/ErrorMessage';
import { formatMoment } from './describeMethod';
import { currentFirst, describeSignIn } from './describeSession';
import { LoadStatus } from './LoadStatus';
import { endEveryOtherSession, signOutEverywhere as endEverySession, endOneSession } from './provedChanges';
import { useAccountAction } from './useAccountAction';
import type { AccountData } from './useAccountData';

interface SessionsProps {
  userId: string;
  data: AccountData<SessionInfo[]>;
  reload(): void;
  onSessionEnded(): void;
  /** Tells the screen's status line what was done. */
  announce(message: string): void;
  /**
   * This session is ended, and every other one too (null) or, without the key's proof, the others are
   * asked to end (what was asked, in words): back to sign-in.
   */
  onSignedOutEverywhere(asked: string | null): void;
  /** A change was asked for (it waits) or made: the pending changes are shown again. */
  onChangesChanged(): void;
}

/**
 * "Where you're signed in": the person's sessions, this browser's marked; end one, the others, or all. Ending
 * another session is proved with the account's key when this browser can; else it is asked for, and waits.
 */
export function Sessions({
  userId,
  data,
  reload,
  onSessionEnded,
  announce,
  onSignedOutEverywhere,
  onChangesChanged,
}: SessionsProps) {
  const action = useAccountAction(() => {
    reload();
    onChangesChanged();
  }, onSessionEnded);

  const end = async (session: SessionInfo) => {
    announce('');
    let said = '';
    const done = await action.run(session.id, async () => {
      const outcome = await endOneSession(userId, session.id);
      said = outcome.applied
        ? `The session on ${session.device} is ended: it is signed out.`
        : describeAskedChange(outcome.pending, outcome.reason);
    });
    if (done) announce(said);
  };
  const endOthers = async () => {
    announce('');
    let said = '';
    const done = await action.run('others', async () => {
      const outcome = await endEveryOtherSession(userId);
      if (!outcome.applied) said = describeAskedChange(outcome.pending, outcome.reason);
      else if (outcome.value === 0) said = 'There were no other sessions.';
      else said = `${outcome.value} other ${outcome.value === 1 ? 'session is' : 'sessions are'} ended.`;
    });
    if (done) announce(said);
  };
  const signOutEverywhere = async () => {
    announce('');
    let asked: string | null = null;
    const done = await action.run('everywhere', async () => {
      const outcome = await endEverySession(userId);
      if (!outcome.applied) asked = describeAskedChange(outcome.pending, outcome.reason);
    });
    if (done) onSignedOutEverywhere(asked);
  };

  const sessions = data.status === 'ready' ? currentFirst(data.value) : [];
  const others = sessions.filter((session) => !session.current).length;

  return (
    <section className="panel settings-section" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you’re signed in</h2>
      <p className="hint">Ending a session signs that browser out at once.</p>

      <LoadStatus data={data} loading="Loading your sessions…" reload={reload} />
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
