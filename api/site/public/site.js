// What every page of the site shares: the API helper, the header with its navigation and the session.

/** An API refusal: the HTTP status and the service's named error { code, message, param?, ... }. */
export class ApiError extends Error {
  constructor(status, error) {
    super(error.message || error.code);
    this.status = status;
    this.code = error.code;
    this.details = error;
  }
}

/**
 * Calls the site's API. POST bodies are JSON; the browser adds Origin, which the service checks. Answers the data of an
 * enveloped answer ({ ok, data }) or the bare body; throws ApiError on a refusal.
 */
export async function api(path, { method = 'GET', body, book } = {}) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (book) headers['x-pd-book'] = book;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const error =
      json && typeof json.error === 'object' ? json.error : { code: json?.error ?? `http_${res.status}`, message: res.statusText };
    throw new ApiError(res.status, error);
  }
  return json && json.ok === true && 'data' in json ? json.data : json;
}

/** A new id for an order submit: a retry or a double click of the same submit sends the same one. */
export function newClientOrderId() {
  return `site-${crypto.randomUUID()}`;
}

const PAGES = [
  ['/trade', 'Trade'],
  ['/keys', 'API keys'],
  ['/equity', 'Equity'],
  ['/arena', 'Arena'],
  ['/docs', 'API docs'],
  ['/api/openapi.json', 'OpenAPI'],
];

/**
 * The page's handlers are attached: the controls marked data-until-ready (disabled in the HTML, so a click before the
 * script ran does not submit the form natively and reload the page) are enabled, and body[data-ready] is set.
 */
export function pageReady() {
  for (const control of document.querySelectorAll('[data-until-ready]')) control.disabled = false;
  document.body.dataset.ready = 'true';
}

/** Builds the header; resolves the session ({ email, account, books }) or sends the visitor to /signin. */
export async function startPage({ needsSession = true } = {}) {
  const header = document.createElement('header');
  header.className = 'site';
  const brand = el('a', { className: 'brand', href: '/trade' }, 'Perpdesk');
  const nav = el('nav', { 'aria-label': 'Site' });
  for (const [href, label] of PAGES) {
    const link = el('a', { href }, label);
    if (location.pathname === href) link.setAttribute('aria-current', 'page');
    nav.append(link);
  }
  const who = el('div', { className: 'who' });
  // the first stop of the Tab key: past the navigation, straight to the page's content
  const skip = el('a', { href: '#main', className: 'skip' }, 'Skip to content');
  header.append(skip, brand, nav, who);
  document.body.prepend(header);
  const answer = await api('/api/auth/me');
  const me = answer.signed_in ? answer : null;
  if (me) {
    const out = el('button', { type: 'button', className: 'quiet' }, 'Sign out');
    out.addEventListener('click', async () => {
      await api('/api/auth/logout', { method: 'POST' });
      location.assign('/signin');
    });
    who.append(el('span', { id: 'who-email' }, me.email), out);
  } else {
    who.append(el('a', { href: '/signin' }, 'Sign in'));
    if (needsSession) {
      location.assign('/signin');
      return new Promise(() => undefined);
    }
  }
  return me;
}

/** document.createElement with properties (attributes for names with a dash) and children. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (name.includes('-') || name === 'for' || name === 'role') node.setAttribute(name, String(value));
    else node[name] = value;
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** A number for a table: fixed digits, or a dash. */
export function fmt(value, digits = 2) {
  return typeof value === 'number' && Number.isFinite(value)
    ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: Math.min(digits, 2) })
    : '–';
}

export function fmtTime(ms) {
  return typeof ms === 'number' ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) : '–';
}

/** Shows a named error next to its field (data-error-for), else in the form's general error line. */
export function showError(form, error, fieldOf = () => undefined) {
  clearErrors(form);
  const param = error?.details?.param ?? fieldOf(error?.code);
  const message = error instanceof ApiError ? `${error.message} (${error.code})` : String(error?.message ?? error);
  const slot = (param && form.querySelector(`[data-error-for="${CSS.escape(param)}"]`)) || form.querySelector('.form-error');
  if (slot) slot.textContent = message;
  const input = param ? form.querySelector(`[name="${CSS.escape(param)}"]`) : null;
  if (input) {
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  }
}

export function clearErrors(form) {
  for (const slot of form.querySelectorAll('.error, .form-error')) slot.textContent = '';
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
}
