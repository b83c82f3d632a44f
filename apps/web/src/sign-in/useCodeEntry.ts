import { isDialError, SECOND_MS } from '@dial/core';
import { useCallback, useState } from 'react';
import type { CodeRoutes } from './codeRoutes';
import { useCodeCheck } from './useCodeCheck';
import { type Challenge, challengeFor } from './useSignInFlow';

/**
 * The code-entry screen's behaviour: the code is checked through {@link useCodeCheck} (digits only, checked
 * as soon as all six are there, a wrong code clears the field and the focus stays in it); resending is allowed
 * once the server's wait is over (when it says a resend is too soon, the countdown shows its real wait).
 */
export function useCodeEntry<Result>(
  initial: Challenge,
  routes: CodeRoutes<Result>,
  onVerified: (result: Result) => void,
  onResent: (challenge: Challenge) => void,
) {
  const [challenge, setChallenge] = useState(initial);
  const [notice, setNotice] = useState('');
  /** The server asked this browser for a proof of work before resending, and it is being solved. */
  const [checking, setChecking] = useState(false);

  const checkCode = useCallback(
    (candidate: string) => {
      setNotice('');
      return routes.verify(challenge.started.channel, challenge.started.to, candidate);
    },
    [challenge, routes],
  );
  const check = useCodeCheck<Result, 'resend'>(checkCode, onVerified);
  const { run, codeReplaced, inputRef } = check;

  const resend = useCallback(
    () =>
      run('resend', async () => {
        setNotice('');
        const started = await routes
          .send(challenge.started.channel, challenge.started.to, {
            onChecking: () => {
              setChecking(true);
              setNotice('Checking this browser… This takes a few seconds.');
            },
          })
          .catch((error: unknown) => {
            setNotice('');
            // Too soon (another tab asked for one): the resend button counts down the server's real wait.
            const wait = isDialError(error, 'code_recently_sent') ? error.retryAfterSeconds : undefined;
            if (wait !== undefined) {
              const later = { ...challenge, resendAt: Date.now() + wait * SECOND_MS };
              setChallenge(later);
              onResent(later);
            }
            throw error;
          })
          .finally(() => setChecking(false));
        const next = challengeFor(started, challenge.display);
        setChallenge(next);
        onResent(next);
        codeReplaced();
        setNotice('New code sent.');
        inputRef.current?.focus();
      }),
    [run, codeReplaced, inputRef, challenge, onResent, routes],
  );

  const { code, pending, error, needsNewCode, onCodeInput, verify } = check;
  return {
    challenge,
    code,
    pending,
    checking,
    error,
    notice,
    needsNewCode,
    inputRef,
    onCodeInput,
    verify,
    resend,
  };
}
