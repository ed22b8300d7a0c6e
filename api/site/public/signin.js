import { api, clearErrors, showError, startPage } from './site.js';

const finishStatus = document.getElementById('finish-status');
const token = new URLSearchParams(location.hash.slice(1)).get('token');

if (token) {
  // the token came in the fragment: drop it from the address bar and history before anything else
  history.replaceState(null, '', location.pathname);
  document.getElementById('signin-panel').hidden = true;
  finishStatus.hidden = false;
  finishStatus.textContent = 'Signing you in…';
  api('/api/auth/finish', { method: 'POST', body: { token } })
    .then(() => location.assign('/trade'))
    .catch((error) => {
      finishStatus.className = 'notice bad';
      finishStatus.textContent = `${error.message} `;
      const again = document.createElement('a');
      again.href = '/signin';
      again.textContent = 'Ask for a new link';
      finishStatus.append(again);
    });
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
}
