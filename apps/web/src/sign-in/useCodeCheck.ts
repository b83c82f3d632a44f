import { isDialError } from '@dial/core';
import { useCallback, useRef, useState } from 'react';
import { cleanCode, isCompleteCode } from './verificationCode';

/**
 * Checking a six-digit code, shared by sign-in and by confirming a sensitive action: digits only, checked as
 * soon as all six are there; one request at a time (`run` guards the caller's other action, such as sending a
 * code, the same way); a wrong code clears the field and puts the focus back in it; a code that no longer
 * works (too many wrong tries, or expired) asks for a new one.
 */
export function useCodeCheck<Result, Other extends string>(
  check: (code: string) => Promise<Result>,
  onChecked: (result: Result) => void,
) {
  const [code, setCode] = useState('');
  const [pending, setPending] = useState<'verify' | Other | null>(null);
  const [error, setError] = useState<unknown>(null);
  /** The code no longer works (too many wrong tries, or expired): a new one is needed. */
  const [needsNewCode, setNeedsNewCode] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const busy = useRef(false);

  /** Runs `action` unless a request is already under way; its error is shown, and passed to `failed`. */
  const run = useCallback(
    async (kind: 'verify' | Other, action: () => Promise<void>, failed?: (caught: unknown) => void) => {
      if (busy.current) return;
      busy.current = true;
      setPending(kind);
      setError(null);
      try {
        await action();
      } catch (caught) {
        setError(caught);
        failed?.(caught);
      } finally {
        busy.current = false;
        setPending(null);
      }
    },
    [],
  );

  const verify = useCallback(
    async (candidate: string) => {
      if (!isCompleteCode(candidate)) return;
      await run(
        'verify',
        async () => onChecked(await check(candidate)),
        (caught) => {
          setCode('');
          if (isDialError(caught, 'code_attempts_exceeded') || isDialError(caught, 'code_expired')) {
            setNeedsNewCode(true);
          }
          inputRef.current?.focus();
        },
      );
    },
    [run, check, onChecked],
  );

  const onCodeInput = useCallback(
    (raw: string) => {
      const digits = cleanCode(raw);
      setCode(digits);
      if (isCompleteCode(digits)) void verify(digits);
    },
    [verify],
  );

  /** A new code was sent: the field starts empty and the code is usable again. */
  const codeReplaced = useCallback(() => {
    setCode('');
    setNeedsNewCode(false);
  }, []);

  return { code, pending, error, needsNewCode, inputRef, run, verify, onCodeInput, codeReplaced };
}
