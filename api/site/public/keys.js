import { api, clearErrors, el, fmt, fmtTime, pageReady, showError, startPage } from './site.js';

await startPage();
const form = document.getElementById('create-form');
const tbody = document.querySelector('#keys-table tbody');
const keysError = document.getElementById('keys-error');
const newKey = document.getElementById('new-key');
const newKeyValue = document.getElementById('new-key-value');
const copyStatus = document.getElementById('copy-status');
const newSecret = document.getElementById('new-secret');
const newSecretValue = document.getElementById('new-secret-value');

function render(list) {
  document.getElementById('plan-line').textContent =
    `Plan ${list.plan.label}: up to ${list.plan.limits.max_keys} active keys, ${list.plan.limits.max_books} books besides main.`;
  tbody.replaceChildren(
    ...list.keys.map((key) => {
      const actions = el('td', { className: 'row-actions' });
      if (!key.revoked) {
        const rename = el('button', { type: 'button', 'aria-label': `Rename key ${key.name}` }, 'Rename');
        rename.addEventListener('click', () => renameKey(key));
        const revoke = el('button', { type: 'button', className: 'danger', 'aria-label': `Revoke key ${key.name}` }, 'Revoke');
        revoke.addEventListener('click', () => revokeKey(key));
        actions.append(rename, revoke);
      }
      return el(
        'tr',
        { 'data-key': key.k },
        el('td', {}, el('code', {}, key.k)),
        el('td', {}, key.name),
        el('td', {}, key.book),
        el('td', { className: 'num' }, fmt(key.calls, 0)),
        el('td', {}, key.last ? fmtTime(key.last) : 'never'),
        el('td', {}, key.revoked ? 'revoked' : 'active'),
        actions,
      );
    }),
  );
}

async function act(body) {
  keysError.textContent = '';
  try {
    const list = await api('/api/bot/key', { method: 'POST', body });
    render(list);
    return list;
  } catch (error) {
    keysError.textContent = `${error.message} (${error.code})`;
    return null;
  }
}

async function renameKey(key) {
  const name = prompt(`New name for ${key.name}`, key.name);
  if (name === null || name.trim() === '') return;
  await act({ act: 'rename', key: key.k, name });
}

async function revokeKey(key) {
  if (!confirm(`Revoke the key "${key.name}" (${key.k})? Bots using it stop working at once; this cannot be undone.`)) return;
  await act({ act: 'revoke', key: key.k });
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  clearErrors(form);
  const button = form.querySelector('button');
  button.disabled = true;
  const body = {
    act: 'create',
    name: form.name.value.trim() || undefined,
    book: form.book.value.trim() || undefined,
    ...(form.secret.checked ? { secret: true } : {}),
  };
  try {
    const list = await api('/api/bot/key', { method: 'POST', body });
    render(list);
    newKey.hidden = false;
    newKeyValue.textContent = list.created.key;
    copyStatus.textContent = '';
    // the secret is shown only beside the key it belongs to, and cleared when a key without one follows
    newSecret.hidden = list.created.secret === undefined;
    newSecretValue.textContent = list.created.secret ?? '';
    document.getElementById('copy-secret-status').textContent = '';
    form.reset();
    document.getElementById('copy-key').focus();
  } catch (error) {
    showError(form, error, (code) => (code === 'bad_book' || code === 'max_books' ? 'book' : undefined));
  } finally {
    button.disabled = false;
  }
});

function copyButton(buttonId, value, status) {
  document.getElementById(buttonId).addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(value.textContent);
      status.textContent = 'Copied.';
    } catch {
      // no clipboard permission (plain http): select the text so the visitor can copy it
      getSelection().selectAllChildren(value);
      status.textContent = 'Selected: press Ctrl+C (or ⌘C) to copy.';
    }
  });
}
copyButton('copy-key', newKeyValue, copyStatus);
copyButton('copy-secret', newSecretValue, document.getElementById('copy-secret-status'));

await act({ act: 'list' });
pageReady();
