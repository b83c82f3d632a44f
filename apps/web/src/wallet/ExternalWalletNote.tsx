import { rememberedWallet } from '../connect/rememberedWallet';

/** Says that this account's wallet is the person's own wallet app, which keeps the key and confirms sends. */
export function ExternalWalletNote({ address }: { address: string }) {
  const name = rememberedWallet(address)?.name;
  return (
    <p className="hint">
      This is your own wallet{name === undefined ? '' : ` (${name})`}: it keeps the key, and you confirm each
      transfer in it. Dial cannot recover or export it.
    </p>
  );
}
