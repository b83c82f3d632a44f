import type { User } from '../api/types';
import { ErrorMessage } from '../ui/ErrorMessage';
import { useCreateEmbeddedWallet } from './useCreateEmbeddedWallet';

interface CreateDialWalletProps {
  user: User;
  /** The account's wallet is the new Dial wallet from now on. */
  onCreated(user: User): void;
}

/**
 * On /settings of an account whose wallet is the person's own wallet app: creating a Dial wallet (an
 * embedded one, its key split between this browser and the server), which then becomes the wallet the
 * account sends and receives with. The wallet app stays a way to sign in.
 */
export function CreateDialWallet({ user, onCreated }: CreateDialWalletProps) {
  const { create, pending, error } = useCreateEmbeddedWallet(user.id);

  return (
    <section className="panel settings-section" aria-labelledby="dial-wallet-title">
      <h2 id="dial-wallet-title">Dial wallet</h2>
      <p>
        Your account uses your own wallet app, which keeps its key: you confirm each transfer in it. You can
        create a Dial wallet instead: it opens in this browser with no app, and you can set up its recovery
        with a password or a passkey.
      </p>
      <p className="hint">
        Once created, the Dial wallet is the one you send and receive with here (its address is new: funds in
        your own wallet stay there). You can still sign in with your wallet app.
      </p>
      {error !== null && <ErrorMessage error={error} />}
      <p className="message" role="status">
        {pending ? 'Creating your Dial wallet…' : ''}
      </p>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          aria-disabled={pending}
          onClick={async () => {
            const changed = await create();
            if (changed !== null) onCreated(changed);
          }}
        >
          {pending ? 'Creating…' : 'Create a Dial wallet'}
        </button>
      </div>
    </section>
  );
}
