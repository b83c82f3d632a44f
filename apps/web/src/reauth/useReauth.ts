import { isDialError } from '@dial/core';
import { useCallback, useRef, useState } from 'react';
import { type ReauthStarted, startReauth, verifyReauth } from '../api/shareEndpoints';
import { cleanCode, isCompleteCode } from '../sign-in/verificationCode';

/**
 * Re-authentication with a fresh one-time code to the user's own phone or e-mail: send, then check the code
 * as soon as all six digits are there (as at sign-in). A wrong code clears the field; an expired or
 * exhausted code asks for a new one.
 */
export function useReauth(onConfirmed: () => void) {
  const [sent, setSent] = useState<(ReauthStarted & { resendAt: number }) | null>(null);
  const [code, setCode] = useState('');
  const [pending, setPending] = useState<'send' | 'verify' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [needsNewCode, setNeedsNewCode] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const busy = useRef(false);

  const send = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setPending('send');
    setError(null);
    try {
      const started = await startReauth();
      setSent({ ...started, resendAt: Date.now() + started.resendAfterSeconds * 1000 });
      setCode('');
      setNeedsNewCode(false);
    } catch (caught) {
      setError(caught);
    } finally {
      busy.current = false;
      setPending(null);
    }
  }, []);

  const verify = useCallback(
    async (candidate: string) => {
      if (busy.current || !isCompleteCode(candidate)) return;
      busy.current = true;
      setPending('verify');
      setError(null);
      try {
        await verifyReauth(candidate);
        onConfirmed();
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
    [onConfirmed],
  );

  const onCodeInput = useCallback(
    (raw: string) => {
      const digits = cleanCode(raw);
      setCode(digits);
      if (isCompleteCode(digits)) void verify(digits);
    },
    [verify],
  );

  return { sent, code, pending, error, needsNewCode, inputRef, send, verify, onCodeInput };
}
