/**
 * Secrets out of log lines: the values of the api_key, key and token query parameters (however
 * their names are cased or percent-encoded), the token of a whsink path (/api/whsink/<token>),
 * and anything shaped like an API key. Applied to every line the logger writes. Pure.
 */

export const REDACTED = '[redacted]';

/** Query parameters whose value is a secret: the service reads them with their names decoded. */
const SECRET_PARAMS = ['api_key', 'key', 'token'];

/** A name as a pattern that also matches it with any of its characters percent-encoded. */
const spelledAnyWay = (name: string): string => [...name].map((c) => `(?:${c}|%${c.charCodeAt(0).toString(16)})`).join('');

/**
 * A secret query parameter's value, after ?name= or &name=. It ends where a URL or a JSON string
 * would end it; a JSON escape (\" or \u0001) is part of it, so an odd character cannot end it early.
 */
const SECRET_PARAM = new RegExp(`([?&](?:${SECRET_PARAMS.map(spelledAnyWay).join('|')})=)(?:[^&#\\s"\\\\]|\\\\.)+`, 'gi');
/** A whsink path's token, or an API key anywhere (in a path, a message, another parameter's value). */
const SINK_TOKEN_OR_KEY = /(\/api\/whsink\/)(?:[^/?#&\s"\\]|\\.)+|pd_[0-9A-Za-z]{16,}/gi;

export function redactSecrets(line: string): string {
  return line
    .replace(SECRET_PARAM, `$1${REDACTED}`)
    .replace(SINK_TOKEN_OR_KEY, (_match: string, sink?: string) => (sink === undefined ? REDACTED : `${sink}${REDACTED}`));
}
