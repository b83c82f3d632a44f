import { SECOND_MS } from '@dial/core';
import { useCallback, useState } from 'react';
import type { Answer } from '../api/client';
import { startReauth, verifyReauth } from '../api/shareEndpoints';
import { useCodeCheck } from '../sign-in/useCodeCheck';

/**
 * Re-authentication with a fresh one-time code to the user's own phone or e-mail: send, then check the code
 * as soon as all six digits are there (as at sign-in, through the same {@link useCodeCheck}). A wrong code
 * clears the field; an expired or exhausted code asks for a new one.
 */
export function useReauth(onConfirmed: () => void) {
  const [sent, setSent] = useState<(Answer<'reauthStart'> & { resendAt: number }) | null>(null);
  const check = useCodeCheck<unknown, 'send'>(verifyReauth, onConfirmed);
  const { run, codeReplaced } = check;

  const send = useCallback(
    () =>
      run('send', async () => {
        const started = await startReauth();
        setSent({ ...started, resendAt: Date.now() + started.resendAfterSeconds * SECOND_MS });
        codeReplaced();
      }),
    [run, codeReplaced],
  );

  const { code, pending, error, needsNewCode, inputRef, verify, onCodeInput } = check;
  return { sent, code, pending, error, needsNewCode, inputRef, send, verify, onCodeInput };
}
