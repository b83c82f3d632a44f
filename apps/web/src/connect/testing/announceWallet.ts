/**
 * A wallet's page script as EIP-6963 has it, on `target` (a window, or an EventTarget standing for one in
 * Node): announces `detail` now, and again whenever a page dispatches `eip6963:requestProvider`.
 */
export function announceWallet(target: EventTarget, detail: unknown): void {
  const announce = () =>
    target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze(detail) }));
  target.addEventListener('eip6963:requestProvider', announce);
  announce();
}

/** localStorage for tests in Node (which has none): a Map behind the Storage methods Dial uses. */
export function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
  };
}
