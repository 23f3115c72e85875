/**
 * Query parameters that carry a credential. The service never reads a credential from a query string,
 * but clients put them there anyway (`?access_token=` is RFC 6750's third method, `?code=` comes from
 * the install redirect), and the request log writes every URL.
 */
const CREDENTIAL_PARAMS = new Set(['access_token', 'token', 'code', 'authorization_code', 'client_secret', '_csrf']);

/** Paths that carry a credential themselves: a console invitation link's token. */
const CREDENTIAL_PATH = /^(\/console\/invite\/)[^/?#]+/;

export const REDACTED = '[redacted]';

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** `/v1/x?access_token=s3cret&pageLength=2` → `/v1/x?access_token=[redacted]&pageLength=2`. */
export function redactUrl(rawUrl: string): string {
  const url = rawUrl.replace(CREDENTIAL_PATH, `$1${REDACTED}`);
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash === -1 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return CREDENTIAL_PARAMS.has(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q + 1)}${redacted}${hash === -1 ? '' : url.slice(hash)}`;
}

// The same parameters inside any text (an error message quoting a URL), as the last line of defence:
// a name right after `?` or `&`, its value up to the next separator or the end of the JSON string.
const IN_TEXT = /([?&](?:access_token|token|code|authorization_code|client_secret|_csrf)=)[^&#\s"\\]*/gi;
const PATH_IN_TEXT = /(\/console\/invite\/)[^/?#\s"\\]+/g;

/** Redacts credential query parameters wherever a URL appears in `text` (one serialized log line). */
export function redactUrlsInText(text: string): string {
  const paths = text.includes('/console/invite/') ? text.replace(PATH_IN_TEXT, `$1${REDACTED}`) : text;
  return paths.includes('=') ? paths.replace(IN_TEXT, `$1${REDACTED}`) : paths;
}
