import { api, clearErrors, pageReady, showError, startPage } from './site.js';

const panel = document.getElementById('signin-panel');
const confirmPanel = document.getElementById('confirm-panel');
const confirmButton = document.getElementById('confirm-signin');
const finishStatus = document.getElementById('finish-status');

function showFinishError(error) {
  confirmPanel.hidden = true;
  finishStatus.hidden = false;
  finishStatus.className = 'notice bad';
  finishStatus.textContent = `${error.message} `;
  const again = document.createElement('a');
  again.href = '/signin';
  again.textContent = 'Ask for a new link';
  finishStatus.append(again);
}

/**
 * Opens the link's token (from the address's fragment, which never reaches a server log): names the address it signs
 * in as and waits for the visitor's click, so a link someone else sent cannot sign them into that account unawares.
 */
async function confirm(token) {
  // drop the token from the address bar and history before anything else
  history.replaceState(null, '', location.pathname);
  panel.hidden = true;
  finishStatus.hidden = true;
  try {
    const link = await api('/api/auth/link', { method: 'POST', body: { token } });
    document.getElementById('confirm-email').textContent = link.email;
    confirmButton.textContent = `Sign in as ${link.email}`;
    confirmButton.onclick = () => void finish(token);
    confirmPanel.hidden = false;
    confirmButton.focus();
  } catch (error) {
    showFinishError(error);
  }
}

async function finish(token) {
  confirmButton.disabled = true;
  finishStatus.hidden = false;
  finishStatus.className = 'notice';
  finishStatus.textContent = 'Signing you in…';
  try {
    await api('/api/auth/finish', { method: 'POST', body: { token } });
    location.assign('/trade');
  } catch (error) {
    confirmButton.disabled = false;
    showFinishError(error);
  }
}

const tokenIn = (hash) => new URLSearchParams(hash.slice(1)).get('token');

// a link opened in the tab that asked for it changes only the fragment: no new page load
addEventListener('hashchange', () => {
  const token = tokenIn(location.hash);
  if (token) void confirm(token);
});

const token = tokenIn(location.hash);
if (token) {
  await confirm(token);
} else {
  await startPage({ needsSession: false });
  const form = document.getElementById('signin-form');
  const sent = document.getElementById('signin-sent');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const email = form.email.value.trim();
    if (!email) return showError(form, { details: { param: 'email' }, message: 'Enter your e-mail address' });
    const button = form.querySelector('button');
    button.disabled = true;
    try {
      await api('/api/auth/start', { method: 'POST', body: { email } });
      sent.hidden = false;
      sent.textContent = `If ${email} can receive mail, a sign-in link is on its way. It works once, for 15 minutes.`;
    } catch (error) {
      showError(form, error, () => 'email');
    } finally {
      button.disabled = false;
    }
  });
  pageReady();
}
