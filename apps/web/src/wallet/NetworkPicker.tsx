import type { Chain } from 'viem';

interface NetworkPickerProps {
  chains: readonly Chain[];
  value: number;
  onChange(chainId: number): void;
}

/** The network whose balance is shown. */
export function NetworkPicker({ chains, value, onChange }: NetworkPickerProps) {
  return (
    <div className="field">
      <label className="label" htmlFor="network">
        Network
      </label>
      <select
        id="network"
        className="input select"
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
      >
        {chains.map((chain) => (
          <option key={chain.id} value={chain.id}>
            {chain.name}
          </option>
        ))}
      </select>
    </div>
  );
}
