import './notices.css';
import { useAccountReading } from '../live/useAccountReading';
import { SCREEN_PATHS } from '../navigation/routes';
import { ScreenLink } from '../navigation/ScreenLink';
import { describeUnread } from './describeNotice';
import { listNotices } from './noticesApi';

/** Where the banner's "Review" leads: the notices list in settings, which marks them read when it opens. */
export const NOTICES_LIST_PATH = `${SCREEN_PATHS.settings}#notices`;

/** How many notices are unread: one notice's page carries the count. */
async function readUnread(signal: AbortSignal): Promise<number> {
  return (await listNotices({ limit: 1, signal })).unread;
}

/**
 * The wallet home's line when the account has unread security notices ("2 new security notices —
 * Review"): at sign-in, what the account's phones and e-mail addresses were told meanwhile, and all a
 * wallet-only account is told. Read at start and again when the live stream says the account changed.
 * Shows nothing while loading or when the count cannot be read: the notices stay in settings.
 */
export function UnreadNoticesBanner() {
  const unread = useAccountReading(readUnread, 0);

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
