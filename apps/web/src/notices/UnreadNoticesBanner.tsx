import './notices.css';
import { useEffect, useState } from 'react';
import { onWalletChange } from '../live/walletChanges';
import { SCREEN_PATHS } from '../navigation/routes';
import { ScreenLink } from '../navigation/ScreenLink';
import { describeUnread } from './describeNotice';
import { listNotices } from './noticesApi';

/** Where the banner's "Review" leads: the notices list in settings, which marks them read when it opens. */
export const NOTICES_LIST_PATH = `${SCREEN_PATHS.settings}#notices`;

/**
 * The wallet home's line when the account has unread security notices ("2 new security notices —
 * Review"): at sign-in, what the account's phones and e-mail addresses were told meanwhile, and all a
 * wallet-only account is told. Read at start and again when the live stream says the account changed.
 * Shows nothing while loading or when the count cannot be read: the notices stay in settings.
 */
export function UnreadNoticesBanner() {
  const [unread, setUnread] = useState(0);

  useEffect(() => {
    let controller = new AbortController();
    const load = () => {
      controller.abort();
      controller = new AbortController();
      const { signal } = controller;
      listNotices({ limit: 1, signal }).then(
        (page) => {
          if (!signal.aborted) setUnread(page.unread);
        },
        () => {
          // Read again at the next change of the account; the wallet goes on.
        },
      );
    };
    load();
    const stop = onWalletChange((change) => {
      if (change.kind === 'account' || change.kind === 'reload') load();
    });
    return () => {
      stop();
      controller.abort();
    };
  }, []);

  if (unread === 0) return null;
  return (
    <section className="notices-banner" aria-label="Security notices">
      <p role="status">{describeUnread(unread)}</p>
      <ScreenLink to={NOTICES_LIST_PATH} className="button button-secondary">
        Review<span className="visually-hidden"> the security notices</span>
      </ScreenLink>
    </section>
  );
}
