import { useCallback, useRef, useState } from 'react';
import type { OtpChannel, OtpStarted } from '../api/types';
import type { CodeRoutes } from './codeRoutes';
import { countryName, initialCountry } from './countryList';
import { prepareOtpRequest, type SignInDraft } from './prepareOtpRequest';

/** A code was sent: what the code-entry screen needs. */
export interface Challenge {
  started: OtpStarted;
  /** The number or address as the person reads it: "+44 7700 900123". */
  display: string;
  /** When the server allows the next resend (ms since the epoch). */
  resendAt: number;
}

export type SignInStep = { name: 'form' } | { name: 'code'; challenge: Challenge };

/**
 * The sign-in flow's state: the form's draft (kept when going back from the code screen), the inline field
 * message, the request to send a code, and the step. Linking a phone number or e-mail address in settings
 * runs the same flow through its own `send`.
 */
export function useSignInFlow(initialChannel: OtpChannel, send: CodeRoutes<unknown>['send']) {
  const [draft, setDraft] = useState<SignInDraft>(() => ({
    channel: initialChannel,
    countryCode: initialCountry(),
    phone: '',
    email: '',
  }));
  const [step, setStep] = useState<SignInStep>({ name: 'form' });
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [sending, setSending] = useState(false);
  /** The server asked this browser for a proof of work, and it is being solved. */
  const [checking, setChecking] = useState(false);
  const fieldRef = useRef<HTMLInputElement>(null);
  const sendingRef = useRef(false);
  /** The code last sent (updated on resend), to return to it rather than ask again too soon. */
  const lastChallenge = useRef<Challenge | null>(null);

  const update = useCallback((patch: Partial<SignInDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setFieldError(null);
    // An error about the other channel no longer applies.
    if (patch.channel !== undefined) setError(null);
  }, []);

  const sendCode = useCallback(async () => {
    if (sendingRef.current) return;
    let request: ReturnType<typeof prepareOtpRequest>;
    try {
      request = prepareOtpRequest(draft, countryName);
    } catch (caught) {
      setError(caught);
      return;
    }
    if (!request.ok) {
      setError(null);
      setFieldError(request.message);
      fieldRef.current?.focus();
      return;
    }
    setFieldError(null);
    setError(null);
    // Back from the code screen with the same number or address, before a new code may be sent: the code
    // already sent still works, so go back to it (asking again would only be refused as too soon).
    const last = lastChallenge.current;
    if (
      last &&
      last.started.channel === request.channel &&
      last.started.to === request.to &&
      Date.now() < last.resendAt
    ) {
      setStep({ name: 'code', challenge: last });
      return;
    }
    sendingRef.current = true;
    setSending(true);
    try {
      const started = await send(request.channel, request.to, { onChecking: () => setChecking(true) });
      const challenge = {
        started,
        display: request.display,
        resendAt: Date.now() + started.resendAfterSeconds * 1000,
      };
      lastChallenge.current = challenge;
      setStep({ name: 'code', challenge });
    } catch (caught) {
      setError(caught);
    } finally {
      sendingRef.current = false;
      setSending(false);
      setChecking(false);
    }
  }, [draft, send]);

  /** A new code was sent from the code screen. */
  const resent = useCallback((challenge: Challenge) => {
    lastChallenge.current = challenge;
  }, []);

  const back = useCallback(() => {
    setError(null);
    setStep({ name: 'form' });
  }, []);

  return { draft, update, step, fieldError, error, sending, checking, sendCode, resent, back, fieldRef };
}
