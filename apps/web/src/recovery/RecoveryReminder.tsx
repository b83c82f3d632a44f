import './recovery.css';
import { useId } from 'react';
import { useWalletSecurity } from './walletSecurity';

interface RecoveryReminderProps {
  /**
   * Shown after a send of real value (on a network that is not a test one): whatever "Later" said, and
   * without "Later".
   */
  atSend?: boolean;
}

/**
 * Asks a person without recovery to set it up, in a few lines under the balance, and says plainly what is at
 * stake. "Later" hides it for a few days in this browser (`reminderSnooze.ts`); it comes back then, and after
 * the next send of real value, until recovery is set up.
 */
export function RecoveryReminder({ atSend = false }: RecoveryReminderProps) {
  const security = useWalletSecurity();
  const titleId = useId();
  if (security === null || security.recovery !== null || (!atSend && security.reminderDismissed)) return null;

  return (
    <section className="recovery-reminder" aria-labelledby={titleId}>
      <h2 id={titleId}>Protect your funds</h2>
      <p>
        {atSend && 'This wallet now holds real value. '}Only this browser holds your wallet's key. If its data
        is lost, the wallet and its funds are gone for good: Dial cannot reset it.
      </p>
      <div className="row">
        <button type="button" className="button button-primary" onClick={security.openRecoverySetup}>
          Set up recovery
        </button>
        {!atSend && (
          <button type="button" className="button button-link" onClick={security.dismissReminder}>
            Later
          </button>
        )}
      </div>
    </section>
  );
}
