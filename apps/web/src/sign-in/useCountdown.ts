import { useEffect, useState } from 'react';

/** Whole seconds left until `deadline` (ms since the epoch), ticking down to 0. */
export function useCountdown(deadline: number): number {
  const [now, setNow] = useState(() => Date.now());
  const left = secondsUntil(deadline, now);

  useEffect(() => {
    setNow(Date.now());
    if (secondsUntil(deadline, Date.now()) === 0) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (secondsUntil(deadline, current) === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [deadline]);

  return left;
}

/** Whole seconds from `now` to `deadline`, rounded up, never negative. */
export function secondsUntil(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
