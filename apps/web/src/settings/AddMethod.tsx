import { type FormEvent, useMemo } from 'react';
import type { ChangeOutcome } from '../account/makeAccountChange';
import type { OtpChannel, SignInMethod } from '../api/types';
import { CodeEntry } from '../sign-in/CodeEntry';
import { EmailField } from '../sign-in/EmailField';
import { PhoneField } from '../sign-in/PhoneField';
import { useSignInFlow } from '../sign-in/useSignInFlow';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { linkCodeRoutes } from './linkCodeRoutes';

interface AddMethodProps {
  /** A phone number (`sms`) or an e-mail address. */
  kind: OtpChannel;
  userId: string;
  /** The code was right: the method is linked, or (no proof from this browser) its link was asked for. */
  onLinked(outcome: ChangeOutcome<SignInMethod>): void;
  onCancel(): void;
}

/**
 * "Add a phone number" / "Add an email address": the number or address, a code sent to it, and the code
 * entered here links it (the same form and code screen as sign-in, on the linking routes).
 */
export function AddMethod({ kind, userId, onLinked, onCancel }: AddMethodProps) {
  const routes = useMemo(() => linkCodeRoutes(userId), [userId]);
  const flow = useSignInFlow(kind, routes.send);
  const isPhone = kind === 'sms';

  if (flow.step.name === 'code') {
    return (
      <CodeEntry
        challenge={flow.step.challenge}
        routes={routes}
        onVerified={onLinked}
        onResent={flow.resent}
        onBack={flow.back}
      />
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void flow.sendCode();
  };
  return (
    <Screen title={isPhone ? 'Add a phone number' : 'Add an email address'}>
      <p className="lead">
        {isPhone
          ? 'You will be able to sign in with it, and people who send to this number in Dial will find your wallet (you can turn that off).'
          : 'You will be able to sign in with it.'}
      </p>
      <form className="form" onSubmit={submit} noValidate>
        {isPhone ? (
          <PhoneField
            countryCode={flow.draft.countryCode}
            value={flow.draft.phone}
            onChange={flow.update}
            error={flow.fieldError}
            disabled={flow.sending}
            inputRef={flow.fieldRef}
            hint="We’ll text it a 6-digit code to check it is yours."
          />
        ) : (
          <EmailField
            value={flow.draft.email}
            onChange={(email) => flow.update({ email })}
            error={flow.fieldError}
            disabled={flow.sending}
            inputRef={flow.fieldRef}
          />
        )}
        {flow.error !== null && <ErrorMessage error={flow.error} />}
        <button type="submit" className="button button-primary" disabled={flow.sending}>
          {flow.sending ? 'Sending…' : 'Send code'}
        </button>
      </form>
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Screen>
  );
}
