import type { ReactNode } from 'react';
import { useCallback, useEffect } from 'react';
import type { OtpChannel, User } from '../api/types';
import { useWalletSignIn, type WalletSignIn } from '../connect/useWalletSignIn';
import { WalletChoices } from '../connect/WalletChoices';
import { CodeEntry } from './CodeEntry';
import { signInCodeRoutes } from './codeRoutes';
import { keepChallenge } from './keptChallenge';
import { PasskeySignIn } from './PasskeySignIn';
import { SignIn } from './SignIn';
import { useSignInFlow } from './useSignInFlow';

interface SignInFlowProps {
  /** The channels the server can send codes on, in tab order. */
  channels: readonly OtpChannel[];
  /**
   * Another way to connect a wallet, after this browser's (WalletConnect, when the server offers it): the
   * app passes it, so sign-in does not load WalletConnect's code.
   */
  moreWallets?: (walletSignIn: WalletSignIn) => ReactNode;
  onSignedIn(user: User): void;
  /**
   * Fetches what opens after sign-in (the wallet screen's chunk), called once the code step shows so it
   * opens without a wait. The app passes it: sign-in does not know what comes next.
   */
  preloadNext(): Promise<unknown>;
}

/** Sign-in: the form, then the code. */
export function SignInFlow({ channels, moreWallets, onSignedIn, preloadNext }: SignInFlowProps) {
  // A reload on the code screen opens it again (the code sent still works), until the person signs in.
  const flow = useSignInFlow(channels[0] ?? 'sms', signInCodeRoutes.send, true);
  const signedIn = useCallback(
    (user: User) => {
      keepChallenge(null);
      onSignedIn(user);
    },
    [onSignedIn],
  );
  const walletSignIn = useWalletSignIn(signedIn);
  const onCodeStep = flow.step.name === 'code';

  // While the code is typed, fetch the wallet screen's chunk so it opens without a wait.
  useEffect(() => {
    if (onCodeStep) preloadNext().catch(() => undefined);
  }, [onCodeStep, preloadNext]);

  if (flow.step.name === 'code') {
    return (
      <CodeEntry
        challenge={flow.step.challenge}
        routes={signInCodeRoutes}
        onVerified={signedIn}
        onResent={flow.resent}
        onBack={flow.back}
      />
    );
  }
  return (
    <SignIn
      channels={channels}
      draft={flow.draft}
      onChange={flow.update}
      onSubmit={() => void flow.sendCode()}
      fieldError={flow.fieldError}
      error={flow.error}
      sending={flow.sending}
      checking={flow.checking}
      fieldRef={flow.fieldRef}
    >
      <PasskeySignIn onSignedIn={signedIn} />
      <WalletChoices walletSignIn={walletSignIn} more={moreWallets?.(walletSignIn)} />
    </SignIn>
  );
}
