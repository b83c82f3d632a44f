import { useState } from 'react';
import type { ChangeOutcome } from '../account/makeAccountChange';
import type { SignInMethod } from '../api/types';
import { PASSKEY_PURPOSE } from '../passkeys/passkeyPurpose';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { addPasskey } from './provedChanges';

interface AddPasskeyProps {
  userId: string;
  onLinked(outcome: ChangeOutcome<SignInMethod>): void;
  onCancel(): void;
}

/**
 * "Add a passkey": a name for it, then the browser makes it (fingerprint, face or screen lock) and it is linked
 * as a way to sign in, at once with the account's proof, else after the cooling-off period.
 */
export function AddPasskey({ userId, onLinked, onCancel }: AddPasskeyProps) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      onLinked(await addPasskey(userId, name));
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <Screen title="Add a passkey">
      <p className="lead">{PASSKEY_PURPOSE}</p>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) void create();
        }}
      >
        <div className="field">
          <label className="label" htmlFor="passkey-name">
            Name (optional)
          </label>
          <input
            id="passkey-name"
            className="input"
            type="text"
            value={name}
            maxLength={64}
            placeholder="My phone"
            autoComplete="off"
            onChange={(event) => setName(event.target.value)}
            // Not disabled while the browser asks: the focus stays here (a disabled field would drop it).
            readOnly={busy}
          />
        </div>
        {error !== null && <ErrorMessage error={error} />}
        <div className="actions">
          <button type="submit" className="button button-primary" aria-disabled={busy}>
            {busy ? 'Waiting for your passkey…' : 'Create passkey'}
          </button>
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Screen>
  );
}
