import { useState } from 'react';
import type { AccountChanges } from '../account/accountChangesApi';
import {
  describeChangeStatus,
  describeRequester,
  describeSecured,
  pendingNotAskedHere,
} from '../account/describeAccountChange';
import { cancelPendingChange, secureMyAccount } from '../account/ownerActions';
import type { AccountChange } from '../api/types';
import { ErrorMessage } from '../ui/ErrorMessage';
import { LoadStatus } from './LoadStatus';
import { useAccountAction } from './useAccountAction';
import type { AccountData } from './useAccountData';

interface PendingChangesProps {
  userId: string;
  data: AccountData<AccountChanges>;
  reload(): void;
  onSessionEnded(): void;
  /** The account was secured: everything shown is read again. */
  onSecured(): void;
}

/**
 * "Pending changes and security": the changes asked for without the key's proof (who asked, from which
 * browser, when each happens), each with "Cancel"; those settled lately; and "Secure my account", which
 * with the key's proof ends every other session, removes the methods linked without it, cancels what is
 * pending and forgets the other browsers, then says what it did.
 */
export function PendingChanges({ userId, data, reload, onSessionEnded, onSecured }: PendingChangesProps) {
  const action = useAccountAction(reload, onSessionEnded);
  const [secured, setSecured] = useState('');

  const cancel = async (change: AccountChange) => {
    setSecured('');
    await action.run(change.id, async () => {
      await cancelPendingChange(userId, change.id);
    });
  };
  const secure = async () => {
    setSecured('');
    let said = '';
    const done = await action.run('secure', async () => {
      said = describeSecured(await secureMyAccount(userId));
    });
    if (done) {
      setSecured(said);
      onSecured();
    }
  };

  const changes = data.status === 'ready' ? data.value.changes : [];
  const pending = changes.filter((change) => change.status === 'pending');
  const settled = changes.filter((change) => change.status !== 'pending');
  // Someone else asked for a change: securing the account is then the thing to do.
  const urgent = pendingNotAskedHere(changes).length > 0;

  return (
    <section className="panel settings-section" aria-labelledby="changes-title">
      <h2 id="changes-title">Pending changes and security</h2>
      <p className="hint">
        A change asked for without your wallet’s confirmation waits
        {data.status === 'ready' ? ` ${formatHours(data.value.coolingOffHours)}` : ''} before it is made, and
        every sign-in method of your account is told. Cancel any you did not ask for.
      </p>

      <LoadStatus data={data} loading="Loading the pending changes…" reload={reload} />
      {data.status === 'ready' && (
        <>
          {!data.value.sessionTrusted && (
            <p className="hint">
              This browser signed in with a method linked without your wallet’s confirmation.
            </p>
          )}
          {pending.length === 0 ? (
            <p>No change to your account is waiting.</p>
          ) : (
            <ul className="settings-list" aria-label="Pending changes">
              {pending.map((change) => (
                <li key={change.id} className="settings-item">
                  <p className="settings-value break-anywhere">{change.summary}</p>
                  <p className="hint">{describeRequester(change)}</p>
                  <p>{describeChangeStatus(change)}</p>
                  <button
                    type="button"
                    className="button button-link"
                    aria-label={`Cancel: ${change.summary}`}
                    aria-disabled={action.pending !== null}
                    onClick={() => void cancel(change)}
                  >
                    {action.pending === change.id ? 'Cancelling…' : 'Cancel'}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {settled.length > 0 && (
            <>
              <h3 className="settings-subheading">Settled in the last 30 days</h3>
              <ul className="settings-list" aria-label="Settled changes">
                {settled.map((change) => (
                  <li key={change.id} className="settings-item">
                    <p className="settings-value break-anywhere">{change.summary}</p>
                    <p className="hint">{describeRequester(change)}</p>
                    <p>{describeChangeStatus(change)}</p>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {action.error !== null && <ErrorMessage error={action.error} />}

      <div className="settings-secure">
        <p className="hint" id="secure-hint">
          If someone else may have one of your codes or this account’s session: ends every other session,
          removes the sign-in methods not confirmed by your wallet, cancels the pending changes and forgets
          the other browsers. Your wallet confirms it.
        </p>
        <button
          type="button"
          className={urgent ? 'button button-primary' : 'button button-secondary'}
          aria-describedby="secure-hint"
          aria-disabled={action.pending !== null}
          onClick={() => void secure()}
        >
          {action.pending === 'secure' ? 'Securing…' : 'Secure my account'}
        </button>
        <p className="message message-success" role="status">
          {secured}
        </p>
      </div>
    </section>
  );
}

function formatHours(hours: number): string {
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}
