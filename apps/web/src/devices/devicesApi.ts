import { proofBody } from '../account/accountChangesApi';
import { type ChangeOutcome, makeAccountChange } from '../account/makeAccountChange';
import { type Answer, type Body, callApi } from '../api/client';

/** A device that can open the wallet (`listDevices`). */
export type DeviceInfo = Answer<'listDevices'>['devices'][number];

/** A link between two browsers as either of them reads it (`getDeviceLink`). */
export type DeviceLink = Answer<'getDeviceLink'>;

/** The devices that can open the signed-in person's wallet, the most recently used first. */
export async function listDevices(signal?: AbortSignal): Promise<DeviceInfo[]> {
  const { devices } = await callApi('listDevices', { signal });
  return devices;
}

/**
 * Removes a device, proved with the account's key when this browser can, else asked for (it then waits out
 * the cooling-off period). Rejects with `device_not_found` when it is gone already.
 */
export function removeDevice(userId: string, id: string): Promise<ChangeOutcome<true>> {
  return makeAccountChange(userId, { action: 'remove-device', id }, async (proof) => {
    const answer = await callApi('removeDevice', { params: { id }, body: proofBody(proof) });
    return 'pending' in answer ? answer : answer.removed;
  });
}

/** Starts a link from this browser (a device) with its public key for the link: its id, code and expiry. */
export function createDeviceLink(publicKey: string): Promise<Answer<'createDeviceLink'>> {
  return callApi('createDeviceLink', { body: { publicKey } });
}

/** Enters a link's code in the new browser; rejects with `device_link_not_found` for a wrong or used code. */
export function claimDeviceLink(body: Body<'claimDeviceLink'>): Promise<Answer<'claimDeviceLink'>> {
  return callApi('claimDeviceLink', { body });
}

/** The link as this session sees it. */
export function getDeviceLink(id: string, signal?: AbortSignal): Promise<DeviceLink> {
  return callApi('getDeviceLink', { params: { id }, signal });
}

/** Confirms a claimed link from the old browser: the new device's auth share, its sealed share, the proof. */
export function confirmDeviceLink(
  id: string,
  body: Body<'confirmDeviceLink'>,
): Promise<Answer<'confirmDeviceLink'>> {
  return callApi('confirmDeviceLink', { params: { id }, body });
}

/** Cancels a link that is not confirmed yet (from either browser). */
export function cancelDeviceLink(id: string): Promise<Answer<'cancelDeviceLink'>> {
  return callApi('cancelDeviceLink', { params: { id } });
}
