import './settings.css';
import { type ReactNode, useCallback, useState } from 'react';
import type { SignInMethod } from '../api/types';
import { closeScreen } from '../navigation/navigate';
import { SCREEN_PATHS } from '../navigation/routes';
import { Screen } from '../ui/Screen';
import { AddMethod } from './AddMethod';
import { listMethods, listSessions } from './accountApi';
import { formatMethodValue } from './describeMethod';
import { LinkWallet } from './LinkWallet';
import { Notices } from './Notices';
import { Sessions } from './Sessions';
import { type AddMethodKind, SignInMethods } from './SignInMethods';
import { useAccountData } from './useAccountData';

export interface SettingsScreenProps {
  /** The person signed out everywhere: back to sign-in, at the wallet home. */
  onSignedOut(): void;
  /** The server no longer knows this session (ended from another browser): back to sign-in. */
  onSessionEnded(): void;
  /** What the wallet screen offers here about the account's wallet (creating a Dial wallet), if anything. */
  walletOffer?: ReactNode;
}

/**
 * `/settings` (its own chunk): the person's sign-in methods (add a phone number or e-mail address by a
 * code, remove, findability for send-to-phone) and where they are signed in (end a session, the others, or
 * all of them).
 */
export default function SettingsScreen({ onSignedOut, onSessionEnded, walletOffer }: SettingsScreenProps) {
  const methods = useAccountData(listMethods, onSessionEnded);
  const sessions = useAccountData(listSessions, onSessionEnded);
  const [adding, setAdding] = useState<AddMethodKind | null>(null);
  const [notice, setNotice] = useState('');
  const { reload: reloadMethods } = methods;

  const linked = useCallback(
    (method: SignInMethod) => {
      setAdding(null);
      setNotice(`${formatMethodValue(method)} is linked: you can sign in with it.`);
      reloadMethods();
    },
    [reloadMethods],
  );

  if (adding === 'wallet') return <LinkWallet onLinked={linked} onCancel={() => setAdding(null)} />;
  if (adding !== null) {
    return <AddMethod kind={adding} onLinked={linked} onCancel={() => setAdding(null)} />;
  }

  return (
    <Screen title="Settings">
      <p className="message message-success break-anywhere" role="status">
        {notice}
      </p>
      <Notices onSessionEnded={onSessionEnded} />
      <SignInMethods
        data={methods.data}
        reload={methods.reload}
        patch={methods.patch}
        onSessionEnded={onSessionEnded}
        announce={setNotice}
        onAdd={(kind) => {
          setNotice('');
          setAdding(kind);
        }}
      />
      {walletOffer}
      <Sessions
        data={sessions.data}
        reload={sessions.reload}
        onSessionEnded={onSessionEnded}
        announce={setNotice}
        onSignedOutEverywhere={onSignedOut}
      />
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => closeScreen(SCREEN_PATHS.settings, SCREEN_PATHS.home)}
        >
          Back
        </button>
      </div>
    </Screen>
  );
}
