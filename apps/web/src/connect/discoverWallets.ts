import type { DiscoveredWallet, WalletInfo, WalletProvider } from './walletProvider';

/** The longest wallet name shown; longer names are cut (a wallet names itself, nobody checks it). */
const MAX_NAME_LENGTH = 64;
/** The longest icon accepted (a data URI); larger ones are dropped, the name is still shown. */
const MAX_ICON_LENGTH = 100_000;

/**
 * Lists the wallets of this browser as they announce themselves (EIP-6963): listens for
 * `eip6963:announceProvider`, then dispatches `eip6963:requestProvider` so that wallets already loaded
 * announce again. `onChange` gets the whole list after each new (or re-announced) wallet, in the order they
 * first announced; nothing is listed before an announcement. Returns the function that stops listening.
 *
 * Announcements are checked (see {@link readAnnouncement}): a malformed one is ignored.
 */
export function discoverWallets(
  target: EventTarget,
  onChange: (wallets: readonly DiscoveredWallet[]) => void,
): () => void {
  const byUuid = new Map<string, DiscoveredWallet>();
  const onAnnounce = (event: Event) => {
    const wallet = readAnnouncement((event as CustomEvent<unknown>).detail);
    if (wallet === null) return;
    const known = byUuid.get(wallet.info.uuid);
    if (known !== undefined && known.provider === wallet.provider && sameInfo(known.info, wallet.info))
      return;
    byUuid.set(wallet.info.uuid, wallet);
    onChange([...byUuid.values()]);
  };
  target.addEventListener('eip6963:announceProvider', onAnnounce);
  target.dispatchEvent(new Event('eip6963:requestProvider'));
  return () => target.removeEventListener('eip6963:announceProvider', onAnnounce);
}

/**
 * An announcement's `detail` as a wallet, or null when it is not one: it needs a provider with `request`,
 * a non-empty `uuid` and `name`. The icon is kept only when it is a `data:image/…` URI (rendered as an
 * `<img>`, never fetched from anywhere); the name is trimmed and cut to 64 characters.
 */
export function readAnnouncement(detail: unknown): DiscoveredWallet | null {
  if (typeof detail !== 'object' || detail === null) return null;
  const { info, provider } = detail as { info?: unknown; provider?: unknown };
  if (!isProvider(provider) || typeof info !== 'object' || info === null) return null;
  const { uuid, name, icon, rdns } = info as Record<string, unknown>;
  if (typeof uuid !== 'string' || uuid === '' || typeof name !== 'string') return null;
  const shownName = name.trim().slice(0, MAX_NAME_LENGTH);
  if (shownName === '') return null;
  return {
    info: {
      uuid,
      name: shownName,
      icon: readIcon(icon),
      rdns: typeof rdns === 'string' ? rdns : '',
    },
    provider,
  };
}

/** The icon when it is a data URI of an image; anything else (http:, javascript:, too large) is dropped. */
export function readIcon(icon: unknown): string | null {
  if (typeof icon !== 'string' || icon.length > MAX_ICON_LENGTH) return null;
  return /^data:image\/[a-z0-9.+-]+[;,]/i.test(icon) ? icon : null;
}

/** The plain injected provider (`window.ethereum`) as a wallet named "Browser wallet", or null. */
export function injectedWallet(target: object): DiscoveredWallet | null {
  const provider = (target as { ethereum?: unknown }).ethereum;
  if (!isProvider(provider)) return null;
  return { info: { uuid: 'injected', name: 'Browser wallet', icon: null, rdns: '' }, provider };
}

function isProvider(value: unknown): value is WalletProvider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { request?: unknown }).request === 'function'
  );
}

function sameInfo(a: WalletInfo, b: WalletInfo): boolean {
  return a.name === b.name && a.icon === b.icon && a.rdns === b.rdns;
}
