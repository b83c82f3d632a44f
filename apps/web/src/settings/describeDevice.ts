import type { DeviceInfo } from '../devices/devicesApi';
import { formatMoment } from './describeMethod';

/** How each device came to open the wallet, in words. */
const HOW: Record<DeviceInfo['how'], string> = {
  created: 'Created your wallet',
  recovered: 'Added by recovery',
  linked: 'Added from another device',
  adopted: 'Held your wallet before devices',
};

/**
 * A device's use of the wallet, in a line: "Added from another device 27 Nov 2026, 09:30 · last used …".
 *
 * @param locale - The locale of the dates (the browser's by default).
 */
export function describeDeviceUse(
  device: Pick<DeviceInfo, 'how' | 'enrolledAt' | 'lastUsedAt'>,
  locale?: string,
): string {
  return `${HOW[device.how]} ${formatMoment(device.enrolledAt, locale)} · last used ${formatMoment(device.lastUsedAt, locale)}`;
}
