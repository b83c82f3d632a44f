import './settings.css';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { listAccountChanges } from '../account/accountChangesApi';
import { describeAskedChange } from '../account/describeAccountChange';
import type { ChangeOutcome } from '../account/makeAccountChange';
import type { SignInMethod } from '../api/types';
import { type DeviceInfo, listDevices } from '../devices/devicesApi';
import { closeScreen } from '../navigation/navigate';
import { SCREEN_PATHS } from '../navigation/routes';
import { Screen } from '../ui/Screen';
import { AddMethod } from './AddMethod';
import { AddPasskey } from './AddPasskey';
import { listMethods, listSessions } from './accountApi';
import { Browsers } from './Browsers';
import { listBrowsers } from './browsersApi';
import { Devices } from './Devices';
import { formatMethodValue } from './describeMethod';
import { LinkWallet } from './LinkWallet';
import { Notices } from './Notices';
import { PendingChanges } from './PendingChanges';
import { Sessions } from './Sessions';
import { type AddMethodKind, SignInMethods } from './SignInMethods';
import { useAccountData } from './useAccountData';

export interface SettingsScreenProps {
  /** The signed-in account: changes to it are proved with its key when this browser can. */
  userId: string;
  /** The person signed out everywhere: back to sign-in, at the wallet home. */
  onSignedOut(): void;
  /** The server no longer knows this session (ended from another browser): back to sign-in. */
  onSessionEnded(): void;
  /** What the wallet screen offers here about the account's wallet (creating a Dial wallet), if anything. */
  walletOffer?: ReactNode;
  /** The account has an embedded wallet: list the devices that open it, add or remove one. */
  walletDevices?: boolean;
}

/**
 * `/settings` (its own chunk): the changes waiting to be made to the account and "Secure my account"; the
 * person's sign-in methods (add a phone number or e-mail address by a code, remove, findability for
 * send-to-phone) and where they are signed in (end a session, the others, or all of them).
 */
export default function SettingsScreen({
  userId,
  onSignedOut,
  onSessionEnded,
  walletOffer,
  walletDevices = false,
}: SettingsScreenProps) {
  /** Signed out here by "Sign out everywhere" without proof: what was asked stays shown until Continue. */
  const [signedOutAsked, setSignedOutAsked] = useState<string | null>(null);
  const signedOutShown = useRef(false);
  const sessionEnded = useCallback(() => {
    if (!signedOutShown.current) onSessionEnded();
  }, [onSessionEnded]);
  const methods = useAccountData(listMethods, sessionEnded);
  const sessions = useAccountData(listSessions, sessionEnded);
  const browsers = useAccountData(listBrowsers, sessionEnded);
  const changes = useAccountData(listAccountChanges, sessionEnded);
  const devices = useAccountData(walletDevices ? listDevices : noDevices, sessionEnded);
  const [adding, setAdding] = useState<AddMethodKind | null>(null);
  const [notice, setNotice] = useState('');
  const { reload: reloadMethods } = methods;
  const { reload: reloadSessions } = sessions;
  const { reload: reloadBrowsers } = browsers;
  const { reload: reloadChanges } = changes;
  const { reload: reloadDevices } = devices;

  const linked = useCallback(
    (outcome: ChangeOutcome<SignInMethod>) => {
      setAdding(null);
      setNotice(
        outcome.applied
          ? `${formatMethodValue(outcome.value)} is linked: you can sign in with it.`
          : describeAskedChange(outcome.pending, outcome.reason),
      );
      reloadMethods();
      reloadChanges();
    },
    [reloadMethods, reloadChanges],
  );
  const signedOutEverywhere = useCallback(
    (asked: string | null) => {
      if (asked === null) {
        onSignedOut();
        return;
      }
      signedOutShown.current = true;
      setSignedOutAsked(asked);
    },
    [onSignedOut],
  );

  if (signedOutAsked !== null) {
    return (
      <Screen title="Signed out">
        <p className="lead">This browser is signed out.</p>
        <p className="message message-success break-anywhere" role="status">
          {signedOutAsked}
        </p>
        <div className="actions">
          <button type="button" className="button button-primary" onClick={onSignedOut}>
            Continue
          </button>
        </div>
      </Screen>
    );
  }
  if (adding === 'passkey') {
    return <AddPasskey userId={userId} onLinked={linked} onCancel={() => setAdding(null)} />;
  }
  if (adding === 'wallet') {
    return <LinkWallet userId={userId} onLinked={linked} onCancel={() => setAdding(null)} />;
  }
  if (adding !== null) {
    return <AddMethod kind={adding} userId={userId} onLinked={linked} onCancel={() => setAdding(null)} />;
  }

  return (
    <Screen title="Settings">
      <p className="message message-success break-anywhere" role="status">
        {notice}
      </p>
      <PendingChanges
        userId={userId}
        data={changes.data}
        reload={reloadChanges}
        onSessionEnded={sessionEnded}
        onSecured={() => {
          reloadMethods();
          reloadSessions();
          reloadBrowsers();
        }}
      />
      <Notices onSessionEnded={sessionEnded} />
      <SignInMethods
        userId={userId}
        data={methods.data}
        reload={methods.reload}
        patch={methods.patch}
        onSessionEnded={sessionEnded}
        onChangesChanged={reloadChanges}
        announce={setNotice}
        onAdd={(kind) => {
          setNotice('');
          setAdding(kind);
        }}
      />
      {walletOffer}
      <Sessions
        userId={userId}
        data={sessions.data}
        reload={sessions.reload}
        onSessionEnded={sessionEnded}
        announce={setNotice}
        onSignedOutEverywhere={signedOutEverywhere}
        onChangesChanged={reloadChanges}
      />
      <Browsers
        userId={userId}
        data={browsers.data}
        reload={reloadBrowsers}
        onSessionEnded={sessionEnded}
        announce={setNotice}
        onChanged={() => {
          reloadSessions();
          reloadChanges();
        }}
      />
      {walletDevices && (
        <Devices
          userId={userId}
          data={devices.data}
          reload={reloadDevices}
          onSessionEnded={sessionEnded}
          announce={setNotice}
          onChanged={reloadChanges}
        />
      )}
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

/** An account without an embedded wallet has no devices to list. */
async function noDevices(): Promise<DeviceInfo[]> {
  return [];
}
