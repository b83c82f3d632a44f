/** Debian's Chromium (`apt-get install -y chromium`), or `CHROMIUM_PATH`. */
export declare const CHROMIUM_EXECUTABLE: string;
/** The flags Chromium starts with in the browser tests and the bench (chromium.mjs). */
export declare const CHROMIUM_ARGS: readonly string[];
