/** Query parameters whose values never reach a log line. */
const SECRET_PARAMETERS = ['sessionToken', 'token'];

/**
 * A request URL fit for the log: the values of secret query parameters (the on-ramp's `sessionToken`)
 * replaced by `[redacted]`, whatever their case or encoding of the name.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=')[0] ?? '';
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is kept as it is.
      }
      return SECRET_PARAMETERS.some((secret) => secret.toLowerCase() === decoded.toLowerCase())
        ? `${name}=[redacted]`
        : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}
