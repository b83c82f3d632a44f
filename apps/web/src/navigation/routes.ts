/**
 * The screens that have a URL, and their paths. A new screen (`/settings`, …) is one line here and one case
 * where the screens are switched (wallet/WalletScreen.tsx for the signed-in ones).
 */
export const SCREEN_PATHS = {
  home: '/',
  send: '/send',
  'send-review': '/send/review',
  receive: '/receive',
  activity: '/activity',
  'add-funds': '/add-funds',
  security: '/security',
  'recovery-setup': '/security/recovery',
  export: '/security/export',
  settings: '/settings',
  'add-device': '/settings/devices/add',
  'link-device': '/link',
} as const;

export type ScreenName = keyof typeof SCREEN_PATHS;

/** The screen at `pathname` (a trailing slash is ignored), or null when no screen has that path. */
export function screenAt(pathname: string): ScreenName | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  for (const [name, screenPath] of Object.entries(SCREEN_PATHS)) {
    if (screenPath === path) return name as ScreenName;
  }
  return null;
}
