// First, for its effect: the start-up requests leave before React is even evaluated.
import './session/startEarly';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { finishOnrampReturn } from './onramp/finishOnrampReturn';
import { startSession, whenSessionStarted } from './session/startSession';
import './styles.css';
import { loadWalletScreen, openWalletEarly, preloadWalletScreenIfSignedIn } from './wallet/loadWalletScreen';

/**
 * How long the first render waits for the start-up answers: long enough that a signed-out visit renders
 * straight to the sign-in form (and a signed-in one to the wallet, its code loaded) with no "Loading…" or
 * "Opening…" flashing first, short
 * enough that a slow network shows "Loading…" rather than a blank page.
 */
const FIRST_RENDER_WAIT_MS = 300;

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');

// The on-ramp's payment window, sent back here: it reports to the app that opened it and closes.
if (finishOnrampReturn()) {
  root.textContent = 'Payment finished. You can close this window.';
} else {
  preloadWalletScreenIfSignedIn();
  const session = startSession();
  whenSessionStarted(session, FIRST_RENDER_WAIT_MS, loadWalletScreen).then(() => {
    // Signed in already (a return visit): the wallet starts opening now, beside the first render.
    const settled = session.settled;
    const opening = settled?.status === 'signed-in' ? openWalletEarly(settled.user) : undefined;
    createRoot(root).render(
      <StrictMode>
        <App opening={opening} />
      </StrictMode>,
    );
  });
}
