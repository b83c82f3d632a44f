import { describeAskedChange } from '../account/describeAccountChange';
import type { BrowserInfo } from '../api/types';
import { ErrorMessage } from '../ui/ErrorMessage';
import { forgetOtherBrowser } from './browsersApi';
import { describeBrowserUse, describeForgotten, thisBrowserFirst } from './describeBrowser';
import { LoadStatus } from './LoadStatus';
import { useAccountAction } from './useAccountAction';
import type { AccountData } from './useAccountData';

interface BrowsersProps {
  userId: string;
  data: AccountData<BrowserInfo[]>;
  reload(): void;
  onSessionEnded(): void;
  /** Tells the screen's status line what was done. */
  announce(message: string): void;
  /** A browser was forgotten (its sessions ended) or that was asked for: the sessions and changes reload. */
  onChanged(): void;
}

/**
 * "Browsers": every browser that signed in to the account and was not forgotten, this one marked. Forgetting
 * another ends its sessions, and its next sign-in is a new browser's, which the owner is told about. Proved
 * with the account's key when this browser can; else it is asked for, and waits.
 */
export function Browsers({ userId, data, reload, onSessionEnded, announce, onChanged }: BrowsersProps) {
  const action = useAccountAction(() => {
    reload();
    onChanged();
  }, onSessionEnded);

  const forget = async (browser: BrowserInfo) => {
    announce('');
    let said = '';
    const done = await action.run(browser.id, async () => {
      const outcome = await forgetOtherBrowser(userId, browser.id);
      said = outcome.applied
        ? describeForgotten(browser.name, outcome.value)
        : describeAskedChange(outcome.pending, outcome.reason);
    });
    if (done) announce(said);
  };

  const browsers = data.status === 'ready' ? thisBrowserFirst(data.value) : [];

  return (
    <section className="panel settings-section" aria-labelledby="browsers-title">
      <h2 id="browsers-title">Browsers</h2>
      <p className="hint">
        Every browser that signed in to your account. Forgetting one signs it out; if it signs in again, you
        are told.
      </p>

      <LoadStatus data={data} loading="Loading your browsers…" reload={reload} />
      {data.status === 'ready' &&
        (browsers.length === 0 ? (
          <p>No browsers.</p>
        ) : (
          <ul className="settings-list" aria-label="Browsers">
            {browsers.map((browser) => (
              <li key={browser.id} className="settings-item">
                <p className="settings-value">
                  {browser.name}
                  {browser.current && <span className="settings-badge">This browser</span>}
                </p>
                <p className="hint">{describeBrowserUse(browser)}</p>
                {!browser.current && (
                  <button
                    type="button"
                    className="button button-link"
                    aria-label={`Forget ${browser.name}, ${describeBrowserUse(browser)}`}
                    aria-disabled={action.pending !== null}
                    onClick={() => void forget(browser)}
                  >
                    {action.pending === browser.id ? 'Forgetting…' : 'Forget'}
                  </button>
                )}
              </li>
            ))}
          </ul>
        ))}
      {action.error !== null && <ErrorMessage error={action.error} />}
    </section>
  );
}
