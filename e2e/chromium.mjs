// How Dial's tools start Debian's Chromium: the browser tests (playwright.config.ts) and the bench
// (bench/lib.mjs) read both from here, so the two never drift apart.

/** Debian's Chromium (`apt-get install -y chromium`), or `CHROMIUM_PATH`. */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless, as root in a container (no sandbox), without a GPU; and nothing of Chromium's own that reaches
 * for the network (QUIC, background networking, component updates, sync): this machine's network is closed,
 * and those connections would be refused many at a time.
 */
export const CHROMIUM_ARGS = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);
