import './recovery.css';
import { useWalletSecurity } from './walletSecurity';

/**
 * Asks a person without recovery to set it up, and says plainly what is at stake. "Later" hides it until
 * the wallet opens again; it keeps coming back until recovery is set up.
 */
export function RecoveryReminder() {
  const security = useWalletSecurity();
  if (security === null || security.recovery !== null || security.reminderDismissed) return null;

  return (
    <section className="recovery-reminder" aria-labelledby="recovery-reminder-title">
      <h2 id="recovery-reminder-title">Protect your funds</h2>
      <p>
        Your wallet's key lives in this browser. If this browser's data is lost (a new phone, cleared browsing
        data) and you have no recovery password or passkey, the wallet and its funds are gone for good: Dial
        cannot reset it.
      </p>
      <div className="row">
        <button type="button" className="button button-primary" onClick={security.openRecoverySetup}>
          Set up recovery
        </button>
        <button type="button" className="button button-link" onClick={security.dismissReminder}>
          Later
        </button>
      </div>
    </section>
  );
}
