import './account.css';
import type { AccountChange } from '../api/types';
import { useAccountReading } from '../live/useAccountReading';
import { SCREEN_PATHS } from '../navigation/routes';
import { ScreenLink } from '../navigation/ScreenLink';
import { listAccountChanges } from './accountChangesApi';
import { describeChangeStatus, describeRequester, pendingNotAskedHere } from './describeAccountChange';

const NONE: AccountChange[] = [];

/** The changes waiting that this session did not ask for. */
async function readWaitingChanges(signal: AbortSignal): Promise<AccountChange[]> {
  return pendingNotAskedHere((await listAccountChanges(signal)).changes);
}

/**
 * The wallet home's warning when a change to the account is waiting that this session did not ask for
 * (someone with one of the person's codes, or a stolen session, may be at work): what was asked, from
 * where, when it happens, and the way to settings, where the person cancels it or secures the account.
 * Read at start and again when the live stream says the account changed (or may have).
 */
export function PendingChangesBanner() {
  // A warning that cannot be read now is read again at the next change.
  const changes = useAccountReading(readWaitingChanges, NONE);

  if (changes.length === 0) return null;
  return (
    <section className="account-alert" aria-labelledby="account-alert-title">
      <h2 id="account-alert-title">
        {changes.length === 1 ? 'A change to your account is waiting' : 'Changes to your account are waiting'}
      </h2>
      <ul>
        {changes.map((change) => (
          <li key={change.id}>
            <strong className="break-anywhere">{change.summary}</strong>. {describeRequester(change)}.{' '}
            {describeChangeStatus(change)}.
          </li>
        ))}
      </ul>
      <p>
        If it was not you, someone else may have one of your codes or your session: cancel it and secure your
        account.
      </p>
      <ScreenLink to={SCREEN_PATHS.settings} className="button button-primary">
        Review and secure my account
      </ScreenLink>
    </section>
  );
}
