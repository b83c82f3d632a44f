import { useRef } from 'react';
import { PanelHeading } from '../ui/PanelHeading';
import { QrCode } from '../ui/QrCode';
import { useCopyText } from '../ui/useCopyText';

interface ReceivePanelProps {
  address: `0x${string}`;
  /** The network selected on the wallet home, which the person paying should send on. */
  networkName: string;
}

/** "Receive": the address as text and as a QR code, a copy button, and the network to send on. */
export function ReceivePanel({ address, networkName }: ReceivePanelProps) {
  const addressRef = useRef<HTMLElement>(null);
  const { copy, feedback } = useCopyText(address, addressRef, 'address');

  return (
    <section className="panel receive" aria-labelledby="receive-title">
      <div className="receive-heading">
        <PanelHeading id="receive-title">Receive</PanelHeading>
        <p className="network-badge">On {networkName}</p>
      </div>
      <QrCode text={address} label="QR code of your wallet address" />
      <figure className="address-full" aria-label="Wallet address">
        <code ref={addressRef}>{address}</code>
      </figure>
      <p className="hint">Send only assets on the {networkName} network to this address.</p>
      <div className="row">
        <button type="button" className="button button-secondary" onClick={() => void copy()}>
          Copy address
        </button>
        <p className="feedback" role="status">
          {feedback}
        </p>
      </div>
    </section>
  );
}
