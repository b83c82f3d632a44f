import { type Answer, type Body, callApi } from '../api/client';

/**
 * This device's auth share and the wallet it opens, given its unlock secret; rejects with `device_removed`
 * (removed on another device: its share opens nothing any more) or `device_not_found` (no such device of
 * this user, or not this secret).
 */
export function unlockDevice(id: string, secret: string): Promise<Answer<'unlockDevice'>> {
  return callApi('unlockDevice', { params: { id }, body: { secret } });
}

/**
 * Lets this browser open the wallet (`how`: it recovered the key here, or adopted a share of a wallet
 * registered before devices), with the key's proof; rejects with `devices_limit_reached` or a proof error.
 */
export function enrollDevice(body: Body<'enrollDevice'>): Promise<Answer<'enrollDevice'>> {
  return callApi('enrollDevice', { body });
}

/** The devices that can open the signed-in user's wallet, the most recently used first. */
export async function listDevices(): Promise<Answer<'listDevices'>['devices']> {
  const { devices } = await callApi('listDevices');
  return devices;
}
