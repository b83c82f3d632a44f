import { useEffect, useState } from 'react';

/**
 * The whole seconds left until `until` (ISO time), 0 once past; updated every second while above 0. `null`
 * (nothing to count down to yet) is 0.
 */
export function useCountdown(until: string | null): number {
  const end = until === null ? Number.NaN : Date.parse(until);
  const [left, setLeft] = useState(() => secondsLeft(end));
  useEffect(() => {
    setLeft(secondsLeft(end));
    if (Number.isNaN(end)) return;
    const timer = setInterval(() => {
      const next = secondsLeft(end);
      setLeft(next);
      if (next === 0) clearInterval(timer);
    }, 1_000);
    return () => clearInterval(timer);
  }, [end]);
  return left;
}

function secondsLeft(end: number): number {
  if (Number.isNaN(end)) return 0;
  return Math.max(0, Math.ceil((end - Date.now()) / 1_000));
}
