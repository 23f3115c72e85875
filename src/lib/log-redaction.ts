/**
 * Query parameters that carry a credential. The service never reads a credential from a query string,
 * but clients put them there anyway (`?access_token=` is RFC 6750's third method, `?code=` comes from
 * the install redirect), and the request log writes every URL.
 */
const CREDENTIAL_PARAMS = new Set(['access_token', 'token', 'code', 'authorization_code', 'client_secret']);

export const REDACTED = '[redacted]';

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** `/v1/x?access_token=s3cret&pageLength=2` → `/v1/x?access_token=[redacted]&pageLength=2`. */
export function redactUrl(url: string): string {
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
const IN_TEXT = /([?&](?:access_token|token|code|authorization_code|client_secret)=)[^&#\s"\\]*/gi;

/** Redacts credential query parameters wherever a URL appears in `text` (one serialized log line). */
export function redactUrlsInText(text: string): string {
  return text.includes('=') ? text.replace(IN_TEXT, `$1${REDACTED}`) : text;
}
