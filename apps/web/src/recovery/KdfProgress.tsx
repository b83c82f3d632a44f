import './recovery.css';

interface KdfProgressProps {
  /** What is going on, e.g. "Protecting your recovery key". */
  label: string;
  /** 0 to 1, or null when the step has no measurable progress (waiting for the server or a passkey). */
  fraction: number | null;
}

/** A long step with its progress bar and a status line that screen readers hear. */
export function KdfProgress({ label, fraction }: KdfProgressProps) {
  const percent = fraction === null ? null : Math.round(fraction * 100);
  // The status line moves in steps of 10 %, so a screen reader is not told every percent; the bar is exact.
  const announced = percent === null ? null : Math.floor(percent / 10) * 10;
  return (
    <div className="kdf-progress">
      {percent === null ? (
        <progress aria-label={label} />
      ) : (
        <progress aria-label={label} max={100} value={percent} />
      )}
      <p role="status" aria-live="polite">
        {announced === null ? `${label}…` : `${label}… ${announced}%`}
      </p>
    </div>
  );
}
