/**
 * What a browser that was removed from the wallet on another device (Settings › Devices) is told, and the
 * ways forward: the held share here opens nothing any more.
 */
export const DEVICE_REMOVED_MESSAGE = 'This browser was removed from your wallet on another device.';

type Listener = () => void;
const listeners = new Set<Listener>();
/** The users whose device this page found removed (its entry is forgotten by then, so only this tells). */
const removedHere = new Set<string>();

/** Notes that the server said this browser's device of `userId`'s wallet was removed. */
export function markDeviceRemoved(userId: string): void {
  removedHere.add(userId);
}

/**
 * Whether this page found this browser's device of `userId`'s wallet removed: the next opening, which finds
 * no device kept any more, still says why.
 */
export function wasDeviceRemoved(userId: string): boolean {
  return removedHere.has(userId);
}

/**
 * Listens for a rebuilding of the key that found this browser removed from the wallet (`device_removed`;
 * the device entry is forgotten by then): the wallet screen then opens the wallet again, which shows why
 * it cannot and what to do.
 *
 * @returns A function that stops listening.
 */
export function onDeviceRemoved(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Tells the listeners that this browser is no longer a device of the wallet. */
export function reportDeviceRemoved(): void {
  for (const listener of [...listeners]) listener();
}
