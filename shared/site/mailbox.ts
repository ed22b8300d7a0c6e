/**
 * The mailbox an address delivers to, for budgets only (accounts keep the address as typed, lower-cased): `+tags`
 * dropped, and the dots of the providers that ignore them (Gmail), so `v+1@`, `v+2@` and `v.@` share `v@`'s budget.
 * Pure.
 */

/** Providers whose mailboxes ignore dots in the local part, by domain: the domain they deliver as. */
const DOTLESS_DOMAINS = new Map([
  ['gmail.com', 'gmail.com'],
  ['googlemail.com', 'gmail.com'],
]);

export function mailboxOf(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  const domain = lower.slice(at + 1);
  const untagged = lower.slice(0, at).split('+')[0] ?? '';
  const dotless = DOTLESS_DOMAINS.get(domain);
  return dotless === undefined ? `${untagged}@${domain}` : `${untagged.replaceAll('.', '')}@${dotless}`;
}
