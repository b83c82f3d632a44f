import { useDeferredValue, useMemo } from 'react';
import { encode } from 'uqr';
import { qrCodePath } from './qrCodePath';

/** The light margin around the code, in modules: the 4 the QR standard asks for, so any scanner reads it. */
const QUIET_ZONE = 4;

interface QrCodeProps {
  text: string;
  /** What the code says, for people who cannot see it (the image's accessible name). */
  label: string;
}

/**
 * `text` as a QR code: an inline SVG built from the module matrix with React elements (no injected markup,
 * no inline styles, which the Content-Security-Policy would refuse). Dark on light whatever the theme, as
 * scanners expect.
 *
 * Encoding takes tens of milliseconds on a slow phone: the code is drawn in a deferred render, so what shows
 * beside it (the address as text, the wallet home) is on screen first; until then the light square holds
 * its place.
 */
export function QrCode({ text, label }: QrCodeProps) {
  const shown = useDeferredValue<string | null>(text, null);
  const code = useMemo(() => {
    if (shown === null) return null;
    // Medium error correction: still readable from a scratched or glaring phone screen.
    const qr = encode(shown, { ecc: 'M', border: 0 });
    return { size: qr.size, path: qrCodePath(qr.data) };
  }, [shown]);
  // Before the first code, any square: the image keeps its size (set by its width) and shape.
  const extent = (code?.size ?? 0) + 2 * QUIET_ZONE;

  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      viewBox={`${-QUIET_ZONE} ${-QUIET_ZONE} ${extent} ${extent}`}
      xmlns="http://www.w3.org/2000/svg"
    >
      <rect className="qr-code-light" x={-QUIET_ZONE} y={-QUIET_ZONE} width={extent} height={extent} />
      {code !== null && <path className="qr-code-dark" d={code.path} />}
    </svg>
  );
}
