import './recovery.css';
import { Confirmation } from '../ui/Confirmation';
import { PanelHeading } from '../ui/PanelHeading';
import { describeRecovery, useWalletSecurity } from './walletSecurity';

/** "Security" on the wallet home: the recovery status with set up / change, and exporting the private key. */
export function SecurityPanel() {
  const security = useWalletSecurity();
  if (security === null) return null;
  const { recovery } = security;

  return (
    <section className="panel security" aria-labelledby="security-title">
      <PanelHeading id="security-title">Security</PanelHeading>
      <p className={recovery === null ? 'security-status security-status-missing' : 'security-status'}>
        {recovery === null ? 'Recovery is not set up.' : `Recovery: ${describeRecovery(recovery)}.`}
      </p>
      <Confirmation message={security.notice} />
      <div className="actions">
        <button
          type="button"
          className={recovery === null ? 'button button-primary' : 'button button-secondary'}
          onClick={security.openRecoverySetup}
        >
          {recovery === null ? 'Set up recovery' : 'Change recovery'}
        </button>
        <button type="button" className="button button-secondary" onClick={security.openExport}>
          Export private key
        </button>
      </div>
    </section>
  );
}
