import { isDialError } from '@dial/core';
import { useCallback, useRef, useState } from 'react';
import { startOtp, verifyOtp } from '../api/endpoints';
import type { User } from '../api/types';
import type { Challenge } from './useSignInFlow';
import { cleanCode, isCompleteCode } from './verificationCode';

/**
 * The code-entry screen's behaviour: digits only, checked as soon as all six are there; a wrong code clears
 * the field (the focus stays in it); resending is allowed once the server's wait is over.
 */
export function useCodeEntry(
  initial: Challenge,
  onVerified: (user: User) => void,
  onResent: (challenge: Challenge) => void,
) {
  const [challenge, setChallenge] = useState(initial);
  const [code, setCode] = useState('');
  const [pending, setPending] = useState<'verify' | 'resend' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  /** The code no longer works (too many wrong tries, or expired): a new one is needed. */
  const [needsNewCode, setNeedsNewCode] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const busy = useRef(false);

  const verify = useCallback(
    async (candidate: string) => {
      if (busy.current || !isCompleteCode(candidate)) return;
      busy.current = true;
      setPending('verify');
      setError(null);
      setNotice('');
      try {
        const { user } = await verifyOtp(challenge.started.channel, challenge.started.to, candidate);
        onVerified(user);
      } catch (caught) {
        setError(caught);
        setCode('');
        if (isDialError(caught, 'code_attempts_exceeded') || isDialError(caught, 'code_expired')) {
          setNeedsNewCode(true);
        }
        inputRef.current?.focus();
      } finally {
        busy.current = false;
        setPending(null);
      }
    },
    [challenge, onVerified],
  );

  const onCodeInput = useCallback(
    (raw: string) => {
      const digits = cleanCode(raw);
      setCode(digits);
      if (isCompleteCode(digits)) void verify(digits);
    },
    [verify],
  );

  const resend = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setPending('resend');
    setError(null);
    setNotice('');
    try {
      const started = await startOtp(challenge.started.channel, challenge.started.to);
      const next = { ...challenge, started, resendAt: Date.now() + started.resendAfterSeconds * 1000 };
      setChallenge(next);
      onResent(next);
      setCode('');
      setNeedsNewCode(false);
      setNotice('New code sent.');
      inputRef.current?.focus();
    } catch (caught) {
      setError(caught);
    } finally {
      busy.current = false;
      setPending(null);
    }
  }, [challenge, onResent]);

  return { challenge, code, pending, error, notice, needsNewCode, inputRef, onCodeInput, verify, resend };
}
