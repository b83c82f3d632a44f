import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { finishOnrampReturn } from './onramp/finishOnrampReturn';
import './styles.css';
import { preloadWalletScreenIfSignedIn } from './wallet/loadWalletScreen';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');

// The on-ramp's payment window, sent back here: it reports to the app that opened it and closes.
if (finishOnrampReturn()) {
  root.textContent = 'Payment finished. You can close this window.';
} else {
  preloadWalletScreenIfSignedIn();
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
