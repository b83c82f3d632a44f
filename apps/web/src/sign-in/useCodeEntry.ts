import { useCallback, useState } from 'react';
import { verifyOtp } from '../api/endpoints';
import type { User } from '../api/types';
import { startOtpWithProof } from './startOtpWithProof';
import { useCodeCheck } from './useCodeCheck';
import type { Challenge } from './useSignInFlow';

/**
 * The code-entry screen's behaviour: the code is checked through {@link useCodeCheck} (digits only, checked
 * as soon as all six are there, a wrong code clears the field and the focus stays in it); resending is allowed
 * once the server's wait is over.
 */
export function useCodeEntry(
  initial: Challenge,
  onVerified: (user: User) => void,
  onResent: (challenge: Challenge) => void,
) {
  const [challenge, setChallenge] = useState(initial);
  const [notice, setNotice] = useState('');
  /** The server asked this browser for a proof of work before resending, and it is being solved. */
  const [checking, setChecking] = useState(false);

  const checkCode = useCallback(
    (candidate: string) => {
      setNotice('');
      return verifyOtp(challenge.started.channel, challenge.started.to, candidate);
    },
    [challenge],
  );
  const signedIn = useCallback(({ user }: { user: User }) => onVerified(user), [onVerified]);
  const check = useCodeCheck<{ user: User }, 'resend'>(checkCode, signedIn);
  const { run, codeReplaced, inputRef } = check;

  const resend = useCallback(
    () =>
      run('resend', async () => {
        setNotice('');
        const started = await startOtpWithProof(challenge.started.channel, challenge.started.to, {
          onChecking: () => {
            setChecking(true);
            setNotice('Checking this browser… This takes a few seconds.');
          },
        })
          .catch((error: unknown) => {
            setNotice('');
            throw error;
          })
          .finally(() => setChecking(false));
        const next = { ...challenge, started, resendAt: Date.now() + started.resendAfterSeconds * 1000 };
        setChallenge(next);
        onResent(next);
        codeReplaced();
        setNotice('New code sent.');
        inputRef.current?.focus();
      }),
    [run, codeReplaced, inputRef, challenge, onResent],
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
