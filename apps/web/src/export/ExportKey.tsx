import '../recovery/recovery.css';
import { DialError } from '@dial/core';
import { useEffect, useRef, useState } from 'react';
import { requireAccountProof } from '../account/proveAccountChange';
import { toDialError } from '../api/describeError';
import { getWalletExport } from '../api/shareEndpoints';
import { keyFromDevice } from '../keys/rebuildKey';
import { ConfirmWithCode } from '../reauth/ConfirmWithCode';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { StatusScreen } from '../ui/StatusScreen';
import { useCopyText } from '../ui/useCopyText';
import { useClipboardWipe } from './useClipboardWipe';

export interface ExportKeyProps {
  userId: string;
  address: `0x${string}`;
  onClose(): void;
}

type Step = { kind: 'confirm' } | { kind: 'loading' } | { kind: 'shown'; privateKey: `0x${string}` };

/**
 * "Export private key": a warning, a fresh code to the person's own phone or e-mail, the key's proof
 * (signed through this browser's device, no prompt) with which the server records the export and tells the
 * owner, then the key rebuilt here through the device (its held share and the auth share the server gives
 * that device only). Hidden until "Reveal" (and again when the
 * page is hidden); it lives only in this screen's state, so it is dropped when the screen closes.
 */
export default function ExportKey({ userId, address, onClose }: ExportKeyProps) {
  const [step, setStep] = useState<Step>({ kind: 'confirm' });
  const [error, setError] = useState<unknown>(null);

  const load = async () => {
    setError(null);
    setStep({ kind: 'loading' });
    try {
      // The key's own proof besides the code: a stolen session that gets a code cannot export it.
      const proof = await requireAccountProof(userId, { action: 'export-key', address });
      const exported = await getWalletExport(proof);
      if (exported.address.toLowerCase() !== address.toLowerCase()) {
        throw new DialError('wallet_mismatch', { details: 'export is of another wallet' });
      }
      // The key is rebuilt here through this browser's device, as for the proof: the server's answer
      // carries no share, only that the export is recorded.
      const { wallet, privateKey } = await keyFromDevice(userId);
      if (wallet.address.toLowerCase() !== address.toLowerCase()) {
        throw new DialError('wallet_mismatch', { details: 'the device opens another wallet' });
      }
      setStep({ kind: 'shown', privateKey });
    } catch (caught) {
      setError(toDialError(caught));
      setStep({ kind: 'confirm' });
    }
  };

  const close = () => {
    setStep({ kind: 'confirm' });
    onClose();
  };

  if (step.kind === 'loading') return <StatusScreen message="Getting your private key…" />;

  return (
    <Screen title="Export private key">
      <div className="warning-box">
        <p>
          <strong>
            Anyone who has this key controls your wallet and can take all its funds, on every network.
          </strong>
        </p>
        <p>Never share it or type it into a website. Dial will never ask you for it.</p>
      </div>
      <p className="hint">
        The code confirms that it is you asking. It does not lock your key away: your key is rebuilt in this
        browser from the share it holds. Dial records each export and tells you by message, so an export you
        did not make does not go unnoticed.
      </p>
      {step.kind === 'confirm' ? (
        <>
          {error !== null && <ErrorMessage error={error} />}
          <ConfirmWithCode
            reason="To show your private key, confirm it's you with a code we send to you."
            onConfirmed={() => void load()}
          />
        </>
      ) : (
        <ShownKey privateKey={step.privateKey} />
      )}
      <button type="button" className="button button-secondary" onClick={close}>
        {step.kind === 'shown' ? 'Done' : 'Cancel'}
      </button>
    </Screen>
  );
}

/**
 * The key, hidden until "Reveal", with a copy button. A copied key is wiped from the clipboard after a
 * minute, or as soon as this screen closes, and the status next to the button says so.
 */
function ShownKey({ privateKey }: { privateKey: `0x${string}` }) {
  const [revealed, setRevealed] = useState(false);
  const keyRef = useRef<HTMLElement>(null);
  const { copy, feedback } = useCopyText(privateKey, keyRef, 'key');
  const wipe = useClipboardWipe();
  const copyKey = async () => {
    if (await copy()) wipe.armed();
  };
  const copyFailed = feedback !== '' && feedback !== 'Copied';
  const status =
    wipe.pending && !copyFailed
      ? 'Copied. The clipboard is cleared in 1 minute, or when you leave this screen.'
      : feedback || (wipe.cleared ? 'The clipboard was cleared.' : '');

  // Hidden again when the person switches away (another app, another tab, the app switcher's preview).
  useEffect(() => {
    const hide = () => {
      if (document.visibilityState === 'hidden') setRevealed(false);
    };
    document.addEventListener('visibilitychange', hide);
    return () => document.removeEventListener('visibilitychange', hide);
  }, []);

  return (
    <div className="reauth">
      <figure className="private-key" aria-label="Private key">
        {revealed ? <code ref={keyRef}>{privateKey}</code> : <span aria-hidden="true">{'•'.repeat(32)}</span>}
        {!revealed && <span className="visually-hidden">Hidden</span>}
      </figure>
      <div className="row">
        <button
          type="button"
          className="button button-primary"
          aria-pressed={revealed}
          onClick={() => setRevealed((shown) => !shown)}
        >
          {revealed ? 'Hide' : 'Reveal'}
        </button>
        <button type="button" className="button button-secondary" onClick={() => void copyKey()}>
          Copy private key
        </button>
        <p className="feedback" role="status">
          {status}
        </p>
      </div>
    </div>
  );
}
