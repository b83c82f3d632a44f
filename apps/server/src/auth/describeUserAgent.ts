/**
 * Browsers, most specific first: Edge, Opera and Samsung Internet also say "Chrome", Chrome also says
 * "Safari", and iOS browsers name themselves with their own tokens (CriOS, FxiOS, EdgiOS).
 */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:Edg|EdgA|EdgiOS)\//, 'Edge'],
  [/\b(?:OPR|OPT)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium|HeadlessChrome)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/** Systems, most specific first: iOS and Android user agents also name Mac OS X and Linux. */
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * A short label for a session's browser and system, read from its `User-Agent`, for the person's sessions
 * list: "Chrome on macOS", "Safari on iPhone", "Firefox on Windows", "Edge" (system unknown), "Unknown
 * browser on Linux", "Unknown browser". The label is always built from the fixed names above, never from
 * the header's own text, which any client can set to anything.
 *
 * @param userAgent - the `User-Agent` the browser sent at sign-in; `null` when it sent none.
 */
export function describeUserAgent(userAgent: string | null): string {
  if (userAgent === null) return 'Unknown browser';
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Unknown browser';
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return system === undefined ? browser : `${browser} on ${system}`;
}
