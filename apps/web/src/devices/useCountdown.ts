import { useEffect, useState } from 'react';

/** The whole seconds left until `until` (ISO time), 0 once past; updated every second while above 0. */
export function useCountdown(until: string): number {
  const end = Date.parse(until);
  const [left, setLeft] = useState(() => secondsLeft(end));
  useEffect(() => {
    setLeft(secondsLeft(end));
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
  return Math.max(0, Math.ceil((end - Date.now()) / 1_000));
}
