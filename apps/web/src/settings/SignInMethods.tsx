import type { Channel } from '@dial/core';
import { useState } from 'react';
import { describeAskedChange } from '../account/describeAccountChange';
import type { SignInMethod } from '../api/types';
import { ErrorMessage } from '../ui/ErrorMessage';
import type { MethodList } from './accountApi';
import { formatDay, formatMethodValue, METHOD_KIND_LABELS } from './describeMethod';
import { LoadStatus } from './LoadStatus';
import { additionBlockedReason, methodCount, removalBlockedReason } from './methodLimits';
import { changeFindable, makeAccountWallet, removeSignInMethod } from './provedChanges';
import { useAccountAction } from './useAccountAction';
import type { AccountData } from './useAccountData';

/** The ways to add a method that the screen offers (each opens its own step). */
export type AddMethodKind = Channel | 'wallet' | 'passkey';

interface SignInMethodsProps {
  userId: string;
  data: AccountData<MethodList>;
  reload(): void;
  /** Shows a method as the server answered it changed. */
  patch(change: (list: MethodList) => MethodList): void;
  onSessionEnded(): void;
  /** Tells the screen's status line what was done. */
  announce(message: string): void;
  onAdd(kind: AddMethodKind): void;
  /** A change was asked for (it waits) or made: the pending changes are shown again. */
  onChangesChanged(): void;
}

/**
 * "Sign-in methods": the person's phone numbers, e-mail addresses, wallets and passkeys, in full; add, remove,
 * findability, and "Make this my wallet" for a wallet linked without the key's proof. Each change is proved
 * with the account's key when this browser can; else it is asked for, and the status line says when it
 * happens.
 */
export function SignInMethods({
  userId,
  data,
  reload,
  patch,
  onSessionEnded,
  announce,
  onAdd,
  onChangesChanged,
}: SignInMethodsProps) {
  const action = useAccountAction(() => {
    reload();
    onChangesChanged();
  }, onSessionEnded);
  const [confirming, setConfirming] = useState<string | null>(null);
  /** A findability change under way: the box shows it until the server answers. */
  const [requested, setRequested] = useState<{ id: string; findable: boolean } | null>(null);

  const toggleFindable = async (method: SignInMethod, findable: boolean) => {
    announce('');
    setRequested({ id: method.id, findable });
    let said = '';
    const done = await action.run(method.id, async () => {
      const outcome = await changeFindable(userId, method.id, findable);
      if (!outcome.applied) {
        said = describeAskedChange(outcome.pending, outcome.reason);
        return;
      }
      const changed = outcome.value;
      patch((list) => ({
        ...list,
        methods: list.methods.map((each) => (each.id === changed.id ? changed : each)),
      }));
      said = findable
        ? `People can now send to you by ${formatMethodValue(method)}.`
        : `People can no longer find you by ${formatMethodValue(method)}.`;
    });
    setRequested(null);
    if (done) announce(said);
  };
  const remove = async (method: SignInMethod) => {
    announce('');
    let said = '';
    const done = await action.run(method.id, async () => {
      const outcome = await removeSignInMethod(userId, method.id);
      said = outcome.applied
        ? `${formatMethodValue(method)} is removed: you can no longer sign in with it.`
        : describeAskedChange(outcome.pending, outcome.reason);
    });
    setConfirming(null);
    if (done) announce(said);
  };
  const makeWallet = async (method: SignInMethod) => {
    announce('');
    let said = '';
    const done = await action.run(method.id, async () => {
      const outcome = await makeAccountWallet(userId, method.id);
      said = outcome.applied
        ? `${formatMethodValue(method)} is now your wallet: it is confirmed as yours.`
        : describeAskedChange(outcome.pending, outcome.reason);
    });
    if (done) announce(said);
  };

  return (
    <section className="panel settings-section" aria-labelledby="methods-title">
      <div className="settings-heading">
        <h2 id="methods-title">Sign-in methods</h2>
        {data.status === 'ready' && (
          <p className="settings-count">{methodCount(data.value.methods.length, data.value.maxMethods)}</p>
        )}
      </div>
      <p className="hint">You can sign in to Dial with any of these.</p>

      <LoadStatus data={data} loading="Loading your sign-in methods…" reload={reload} />
      {data.status === 'ready' && (
        <>
          {data.value.methods.length === 0 ? (
            <p>No sign-in methods.</p>
          ) : (
            <ul className="settings-list" aria-label="Sign-in methods">
              {data.value.methods.map((method) => (
                <MethodItem
                  key={method.id}
                  method={method}
                  removalBlocked={removalBlockedReason(data.value.methods)}
                  pending={action.pending === method.id}
                  findable={requested?.id === method.id ? requested.findable : method.findable === true}
                  confirming={confirming === method.id}
                  onFindable={(findable) => void toggleFindable(method, findable)}
                  onAskRemove={() => {
                    action.clearError();
                    setConfirming(method.id);
                  }}
                  onCancelRemove={() => setConfirming(null)}
                  onRemove={() => void remove(method)}
                  onMakeWallet={() => void makeWallet(method)}
                />
              ))}
            </ul>
          )}
          {action.error !== null && <ErrorMessage error={action.error} />}
          <AddMethods
            blocked={additionBlockedReason(data.value.methods.length, data.value.maxMethods)}
            onAdd={onAdd}
          />
        </>
      )}
    </section>
  );
}

interface MethodItemProps {
  method: SignInMethod;
  /** Why no method can be removed now, or null. */
  removalBlocked: string | null;
  pending: boolean;
  /** Whether the number's box is ticked (the change asked for, while it is under way). */
  findable: boolean;
  confirming: boolean;
  onFindable(findable: boolean): void;
  onAskRemove(): void;
  onCancelRemove(): void;
  onRemove(): void;
  onMakeWallet(): void;
}

const VALUE_CLASS: Record<SignInMethod['kind'], string> = {
  phone: 'settings-value nowrap',
  email: 'settings-value break-anywhere',
  wallet: 'settings-value settings-address break-anywhere',
  passkey: 'settings-value break-anywhere',
};

function MethodItem({
  method,
  removalBlocked,
  pending,
  findable,
  confirming,
  onFindable,
  onAskRemove,
  onCancelRemove,
  onRemove,
  onMakeWallet,
}: MethodItemProps) {
  const value = formatMethodValue(method);
  const findableId = `findable-${method.id}`;
  const blockedId = `remove-blocked-${method.id}`;

  return (
    <li className="settings-item">
      <p className="settings-kind">
        {METHOD_KIND_LABELS[method.kind]}
        {!method.trusted && (
          <span className="settings-badge settings-untrusted">not confirmed by your wallet</span>
        )}
      </p>
      <p className={VALUE_CLASS[method.kind]}>{value}</p>
      <p className="hint">
        Added on {formatDay(method.createdAt)}
        {method.lastUsedAt != null && `, last used on ${formatDay(method.lastUsedAt)}`}
      </p>
      {!method.trusted && (
        <p className="hint">
          It was linked without your wallet’s confirmation: it cannot remove a method that was, and “Secure my
          account” removes it.
        </p>
      )}
      {!method.trusted && method.kind === 'wallet' && (
        <button
          type="button"
          className="button button-link"
          aria-label={`Make ${value} my wallet`}
          aria-disabled={pending}
          onClick={() => {
            if (!pending) onMakeWallet();
          }}
        >
          Make this my wallet
        </button>
      )}

      {method.kind === 'phone' && (
        <div className="settings-toggle">
          <label>
            <input
              type="checkbox"
              checked={findable}
              onChange={(event) => {
                if (!pending) onFindable(event.target.checked);
              }}
              aria-describedby={`${findableId}-hint`}
              aria-disabled={pending}
            />{' '}
            Let people send to me by this number
          </label>
          <p className="hint" id={`${findableId}-hint`}>
            When this is on, someone who sends to {value} in Dial finds your wallet. When it is off, they find
            no one; you can still sign in with the number.
          </p>
        </div>
      )}

      {confirming ? (
        <fieldset className="settings-confirm">
          <legend>Remove {value}?</legend>
          <p>
            You will no longer be able to sign in with it
            {method.kind === 'phone' ? ', and people will not find you by it' : ''}.
          </p>
          <div className="actions">
            <button type="button" className="button button-primary" onClick={onRemove} disabled={pending}>
              {pending ? 'Removing…' : 'Remove'}
            </button>
            <button type="button" className="button button-secondary" onClick={onCancelRemove}>
              Cancel
            </button>
          </div>
        </fieldset>
      ) : (
        <>
          <button
            type="button"
            className="button button-link"
            aria-label={`Remove ${value}`}
            aria-disabled={removalBlocked !== null}
            aria-describedby={removalBlocked !== null ? blockedId : undefined}
            onClick={() => {
              if (removalBlocked === null) onAskRemove();
            }}
          >
            Remove
          </button>
          {removalBlocked !== null && (
            <p className="hint" id={blockedId}>
              {removalBlocked}
            </p>
          )}
        </>
      )}
    </li>
  );
}

function AddMethods({ blocked, onAdd }: { blocked: string | null; onAdd(kind: AddMethodKind): void }) {
  const describedBy = blocked !== null ? 'add-blocked' : undefined;
  const add = (kind: AddMethodKind) => {
    if (blocked === null) onAdd(kind);
  };
  return (
    <>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          aria-disabled={blocked !== null}
          aria-describedby={describedBy}
          onClick={() => add('sms')}
        >
          Add a phone number
        </button>
        <button
          type="button"
          className="button button-secondary"
          aria-disabled={blocked !== null}
          aria-describedby={describedBy}
          onClick={() => add('email')}
        >
          Add an email address
        </button>
        <button
          type="button"
          className="button button-secondary"
          aria-disabled={blocked !== null}
          aria-describedby={describedBy}
          onClick={() => add('wallet')}
        >
          Link a wallet
        </button>
        <button
          type="button"
          className="button button-secondary"
          aria-disabled={blocked !== null}
          aria-describedby={describedBy}
          onClick={() => add('passkey')}
        >
          Add a passkey
        </button>
      </div>
      {blocked !== null && (
        <p className="hint" id="add-blocked">
          {blocked}
        </p>
      )}
    </>
  );
}
