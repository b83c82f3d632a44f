import type { ChangeOutcome } from '../account/makeAccountChange';
import type { SignInMethod } from '../api/types';
import { useDiscoveredWallets } from '../connect/useDiscoveredWallets';
import { WalletChoices } from '../connect/WalletChoices';
import { Screen } from '../ui/Screen';
import { useLinkWallet } from './useLinkWallet';

interface LinkWalletProps {
  userId: string;
  onLinked(outcome: ChangeOutcome<SignInMethod>): void;
  onCancel(): void;
}

/**
 * "Link a wallet": the wallets this browser offers (EIP-6963, or the injected one); the one picked signs a
 * message (free, no transaction) that proves it is the person's, and is linked as a way to sign in.
 */
export function LinkWallet({ userId, onLinked, onCancel }: LinkWalletProps) {
  const link = useLinkWallet(userId, onLinked);
  const wallets = useDiscoveredWallets();

  return (
    <Screen title="Link a wallet">
      <p className="lead">
        Sign a message in a wallet you already have to show it is yours; then you can sign in to Dial with it.
        Signing costs nothing, and Dial never holds its key.
      </p>
      {wallets.length === 0 ? (
        <p className="hint">
          No wallet was found in this browser. Install a wallet extension, or open Dial in your wallet app’s
          browser, then come back here.
        </p>
      ) : (
        <WalletChoices walletSignIn={link} title="Wallets in this browser" purpose="link it" />
      )}
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Screen>
  );
}
