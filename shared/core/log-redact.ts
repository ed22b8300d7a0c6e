/**
 * Secrets out of log lines: the values of the api_key, key and token query parameters (however
 * their names are spelled or percent-encoded), the token of a whsink path (/api/whsink/<token>),
 * and anything shaped like an API key. Applied to every line the logger writes. Pure.
 */

export const REDACTED = '[redacted]';

/** Query parameters whose value is a secret (names compared decoded, in lower case). */
const SECRET_PARAMS: ReadonlySet<string> = new Set(['api_key', 'key', 'token']);

/**
 * A query parameter, name=value after ? or &. Either ends where a URL or a JSON string would end it;
 * a JSON escape (\" or \u0001) is part of it, so an odd character cannot end the redaction early.
 */
const QUERY_PARAM = /([?&])((?:[^=&#\s"\\]|\\.)*)=((?:[^&#\s"\\]|\\.)*)/g;
/** A whsink path's token, or an API key anywhere (in a path, a message, another parameter's value). */
const SINK_TOKEN_OR_KEY = /(\/api\/whsink\/)(?:[^/?#&\s"\\]|\\.)+|pd_[0-9A-Za-z]{16,}/gi;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

export function redactSecrets(line: string): string {
  return line
    .replace(QUERY_PARAM, (match: string, sep: string, name: string, value: string) => (value !== '' && SECRET_PARAMS.has(decodedName(name)) ? `${sep}${name}=${REDACTED}` : match))
    .replace(SINK_TOKEN_OR_KEY, (_match: string, sink?: string) => (sink === undefined ? REDACTED : `${sink}${REDACTED}`));
}
