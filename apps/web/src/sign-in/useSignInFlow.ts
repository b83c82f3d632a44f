import { isDialError, SECOND_MS } from '@dial/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { OtpChannel, OtpStarted } from '../api/types';
import type { CodeRoutes } from './codeRoutes';
import { countryName, rememberCountry, startingCountry } from './countryList';
import { keepChallenge, readKeptChallenge } from './keptChallenge';
import { checkSignInDraft, phoneLibrary } from './loadPhoneLibrary';
import type { SignInDraft } from './prepareOtpRequest';

/** A code was sent: what the code-entry screen needs. */
export interface Challenge {
  started: OtpStarted;
  /** The number or address as the person reads it: "+44 7700 900123". */
  display: string;
  /** When the server allows the next resend (ms since the epoch). */
  resendAt: number;
  /** Until when the code is known to work (ms since the epoch): a reload later returns to the form. */
  expiresAt: number;
}

export type SignInStep = { name: 'form' } | { name: 'code'; challenge: Challenge };

/** The code screen for a code the server sent (`started` is its answer, `now` when it came). */
export function challengeFor(started: OtpStarted, display: string, now = Date.now()): Challenge {
  return {
    started,
    display,
    resendAt: now + started.resendAfterSeconds * SECOND_MS,
    expiresAt: now + started.expiresInSeconds * SECOND_MS,
  };
}

/**
 * The sign-in flow's state: the form's draft (kept when going back from the code screen), the inline field
 * message, the request to send a code, and the step. Linking a phone number or e-mail address in settings
 * runs the same flow through its own `send`. With `keep` (sign-in's flow), the code step is kept in this tab,
 * so a reload on the code screen opens it again: the code sent still works.
 *
 * The form shows before the phone library has loaded (it starts loading once the flow shows): "Send code"
 * waits for it, so the form is checked exactly as it would be with the library there from the start.
 */
export function useSignInFlow(initialChannel: OtpChannel, send: CodeRoutes<unknown>['send'], keep = false) {
  const [kept] = useState(() => (keep ? readKeptChallenge(Date.now()) : null));
  const [draft, setDraft] = useState<SignInDraft>(() => ({
    channel: initialChannel,
    countryCode: startingCountry(),
    phone: '',
    email: '',
  }));
  const [step, setStep] = useState<SignInStep>(() =>
    kept?.showing ? { name: 'code', challenge: kept.challenge } : { name: 'form' },
  );
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [sending, setSending] = useState(false);
  /** The server asked this browser for a proof of work, and it is being solved. */
  const [checking, setChecking] = useState(false);
  const fieldRef = useRef<HTMLInputElement>(null);
  const sendingRef = useRef(false);
  /** The code last sent (updated on resend), to return to it rather than ask again too soon. */
  const lastChallenge = useRef<Challenge | null>(kept?.challenge ?? null);

  /** Shows the code screen for `challenge` (or keeps it for "Back" to the form), and keeps it for a reload. */
  const showCode = useCallback(
    (challenge: Challenge, showing = true) => {
      lastChallenge.current = challenge;
      if (keep) keepChallenge({ challenge, showing });
      setStep(showing ? { name: 'code', challenge } : { name: 'form' });
    },
    [keep],
  );

  const update = useCallback((patch: Partial<SignInDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setFieldError(null);
    // An error about the other channel no longer applies.
    if (patch.channel !== undefined) setError(null);
  }, []);

  // The phone library, for the form's check (and the phone field's formatting): loaded once the flow shows.
  useEffect(() => {
    phoneLibrary.load().catch(() => undefined);
  }, []);

  const sendCode = useCallback(async () => {
    if (sendingRef.current) return;
    // Taken from here on: a second press while the phone library loads is ignored, as one while sending.
    sendingRef.current = true;
    try {
      let checked: Awaited<ReturnType<typeof checkSignInDraft>>;
      try {
        checked = await checkSignInDraft(draft, countryName);
      } catch (caught) {
        setError(caught);
        return;
      }
      const { request } = checked;
      // Typed before the phone library loaded: the number as the field now formats it.
      if (checked.draft !== draft) setDraft(checked.draft);
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
        showCode(last);
        return;
      }
      setSending(true);
      try {
        const started = await send(request.channel, request.to, { onChecking: () => setChecking(true) });
        showCode(challengeFor(started, request.display));
        // The next phone field on this browser starts with this number's country.
        if (request.channel === 'sms') rememberCountry(checked.draft.countryCode);
      } catch (caught) {
        // This browser was sent a code for it a moment ago (before a reload, in another tab): that code is
        // the one to enter, and the server said how long until it sends another.
        const wait = isDialError(caught, 'code_recently_sent') ? caught.retryAfterSeconds : undefined;
        if (wait === undefined) setError(caught);
        else {
          const { channel, to, display } = request;
          showCode(
            challengeFor(
              { ok: true, channel, to, resendAfterSeconds: wait, expiresInSeconds: wait },
              display,
            ),
          );
        }
      } finally {
        setSending(false);
        setChecking(false);
      }
    } finally {
      sendingRef.current = false;
    }
  }, [draft, send, showCode]);

  /** The code screen's challenge changed: a new code was sent, or the server said when the next may be. */
  const resent = showCode;

  const back = useCallback(() => {
    setError(null);
    if (lastChallenge.current) showCode(lastChallenge.current, false);
    else setStep({ name: 'form' });
  }, [showCode]);

  return { draft, update, step, fieldError, error, sending, checking, sendCode, resent, back, fieldRef };
}
