import type { FormEvent, KeyboardEvent, ReactNode, RefObject } from 'react';
import type { OtpChannel } from '../api/types';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { EmailField } from './EmailField';
import { PhoneField } from './PhoneField';
import type { SignInDraft } from './prepareOtpRequest';

interface SignInProps {
  /** The channels to offer; tabs only when there is more than one. */
  channels: readonly OtpChannel[];
  draft: SignInDraft;
  onChange(patch: Partial<SignInDraft>): void;
  onSubmit(): void;
  fieldError: string | null;
  error: unknown;
  sending: boolean;
  /** The server asked for a proof of work and this browser is solving it. */
  checking: boolean;
  fieldRef: RefObject<HTMLInputElement | null>;
  /** Other ways to sign in, below the form (the wallets). */
  children?: ReactNode;
}

const TAB_LABELS: Record<OtpChannel, string> = { sms: 'Phone', email: 'Email' };

/** The sign-in form: phone number or e-mail address, then "Send code". */
export function SignIn({
  channels,
  draft,
  onChange,
  onSubmit,
  fieldError,
  error,
  sending,
  checking,
  fieldRef,
  children,
}: SignInProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  const field =
    draft.channel === 'sms' ? (
      <PhoneField
        countryCode={draft.countryCode}
        value={draft.phone}
        onChange={onChange}
        error={fieldError}
        disabled={sending}
        inputRef={fieldRef}
      />
    ) : (
      <EmailField
        value={draft.email}
        onChange={(email) => onChange({ email })}
        error={fieldError}
        disabled={sending}
        inputRef={fieldRef}
      />
    );

  return (
    <Screen title="Sign in to Dial" pageTitle="Sign in">
      <p className="lead">No password: we send you a code, and your wallet opens.</p>
      <form className="form" onSubmit={submit} noValidate>
        {channels.length > 1 ? (
          <>
            <ChannelTabs
              channels={channels}
              value={draft.channel}
              onChange={(channel) => onChange({ channel })}
            />
            <div
              className="tabpanel"
              role="tabpanel"
              id={`sign-in-panel-${draft.channel}`}
              aria-labelledby={`sign-in-tab-${draft.channel}`}
            >
              {field}
            </div>
          </>
        ) : (
          field
        )}
        {error !== null && <ErrorMessage error={error} />}
        <p className="message" role="status">
          {checking ? 'Checking this browser… This takes a few seconds.' : ''}
        </p>
        <button type="submit" className="button button-primary" disabled={sending}>
          {checking ? 'Checking this browser…' : sending ? 'Sending…' : 'Send code'}
        </button>
      </form>
      {children}
    </Screen>
  );
}

interface ChannelTabsProps {
  channels: readonly OtpChannel[];
  value: OtpChannel;
  onChange(channel: OtpChannel): void;
}

/** "Phone" and "Email" tabs: arrow keys, Home and End move between them (and select). */
function ChannelTabs({ channels, value, onChange }: ChannelTabsProps) {
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = channels.indexOf(value);
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: channels.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = channels[(target + channels.length) % channels.length]!;
    onChange(next);
    document.getElementById(`sign-in-tab-${next}`)?.focus();
  };

  return (
    <div className="tabs" role="tablist" aria-label="Sign in with">
      {channels.map((channel) => {
        const selected = channel === value;
        return (
          <button
            key={channel}
            type="button"
            role="tab"
            id={`sign-in-tab-${channel}`}
            className="tab"
            aria-selected={selected}
            aria-controls={selected ? `sign-in-panel-${channel}` : undefined}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(channel)}
            onKeyDown={onKeyDown}
          >
            {TAB_LABELS[channel]}
          </button>
        );
      })}
    </div>
  );
}
