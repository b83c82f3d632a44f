import { useEffect, useState } from 'react';
import { describeAskedChange } from '../account/describeAccountChange';
import { type DeviceInfo, removeDevice } from '../devices/devicesApi';
import { deviceStore } from '../keys/deviceStore';
import { openScreen } from '../navigation/navigate';
import { SCREEN_PATHS } from '../navigation/routes';
import { ErrorMessage } from '../ui/ErrorMessage';
import { describeDeviceUse } from './describeDevice';
import { LoadStatus } from './LoadStatus';
import { useAccountAction } from './useAccountAction';
import type { AccountData } from './useAccountData';

interface DevicesProps {
  userId: string;
  data: AccountData<DeviceInfo[]>;
  reload(): void;
  onSessionEnded(): void;
  /** Tells the screen's status line what was done. */
  announce(message: string): void;
  /** A device was removed, or that was asked for: the pending changes reload. */
  onChanged(): void;
}

/**
 * "Devices": the browsers that can open the wallet (each holds a share of its own), this one marked; add one
 * by QR code, or remove one (its share then opens nothing; with the key's proof at once, else after the
 * cooling-off period, and the owner is told either way).
 */
export function Devices({ userId, data, reload, onSessionEnded, announce, onChanged }: DevicesProps) {
  const thisDevice = useThisDeviceId(userId);
  const action = useAccountAction(() => {
    reload();
    onChanged();
  }, onSessionEnded);

  const remove = async (device: DeviceInfo) => {
    announce('');
    let said = '';
    const done = await action.run(device.id, async () => {
      const outcome = await removeDevice(userId, device.id);
      said = outcome.applied
        ? `${device.name} was removed: it can no longer open your wallet.`
        : describeAskedChange(outcome.pending, outcome.reason);
    });
    if (done) announce(said);
  };

  const devices = data.status === 'ready' ? data.value : [];
  return (
    <section className="panel settings-section" aria-labelledby="devices-title">
      <h2 id="devices-title">Devices</h2>
      <p className="hint">
        Your wallet opens on each of these, with no password: each keeps its own part of your wallet&apos;s
        key, and Dial keeps the other part for it. Remove a device you lost or no longer use: its part then
        opens nothing.
      </p>
      <LoadStatus data={data} loading="Loading your devices…" reload={reload} />
      {data.status === 'ready' &&
        (devices.length === 0 ? (
          <p>No device opens your wallet yet.</p>
        ) : (
          <ul className="settings-list" aria-label="Devices">
            {devices.map((device) => {
              const current = device.id === thisDevice;
              return (
                <li key={device.id} className="settings-item">
                  <p className="settings-value">
                    {device.name}
                    {current && <span className="settings-badge">This device</span>}
                  </p>
                  <p className="hint">{describeDeviceUse(device)}</p>
                  <button
                    type="button"
                    className="button button-link"
                    aria-label={`Remove ${device.name}, ${describeDeviceUse(device)}`}
                    aria-disabled={action.pending !== null}
                    onClick={() => void remove(device)}
                  >
                    {action.pending === device.id ? 'Removing…' : current ? 'Remove this device' : 'Remove'}
                  </button>
                </li>
              );
            })}
          </ul>
        ))}
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => openScreen(SCREEN_PATHS['add-device'])}
        >
          Add a device
        </button>
      </div>
      {action.error !== null && <ErrorMessage error={action.error} />}
    </section>
  );
}

/** The id of the device this browser keeps for the user, or null (none, or not read yet). */
function useThisDeviceId(userId: string): string | null {
  const [id, setId] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    deviceStore.load(userId).then(
      (device) => {
        if (live) setId(device?.deviceId ?? null);
        device?.heldShare.fill(0);
      },
      () => {
        // No store here (a private window without IndexedDB): no device is marked.
      },
    );
    return () => {
      live = false;
    };
  }, [userId]);
  return id;
}
