/** Rules for the names an operator or client gives: e-mails, books, key names. Pure. */
import Joi from 'joi';
import { AppError } from '../../core/errors.js';

/** The account's own book; every key that is not bound to a named book trades it. */
export const MAIN_BOOK = 'main';

const BOOK_NAME = /^[A-Za-z0-9_-]{1,32}$/;
const EMAIL = Joi.string()
  .max(254)
  .email({ tlds: { allow: false }, ignoreLength: false })
  .required();
export const KEY_NAME_MAX = 64;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Lowercase and trimmed, the one form an e-mail is indexed by; a malformed one is refused. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  const { error } = EMAIL.validate(email);
  if (error || CONTROL.test(email))
    throw new AppError('invalid_param', `email: "${printable(raw)}" is not an e-mail address`, { param: 'email' });
  return email;
}

/** A named book: 1-32 characters of A-Z a-z 0-9 _ -, and not 'main' (in any case). */
export function checkBookName(raw: string): string {
  if (!BOOK_NAME.test(raw) || raw.toLowerCase() === MAIN_BOOK) {
    throw new AppError('bad_book', `book: "${printable(raw)}" is not a book name (1-32 characters of A-Z a-z 0-9 _ -, not main)`, {
      param: 'book',
    });
  }
  return raw;
}

/** A key's name: trimmed, 1-64 characters, no control characters. */
export function checkKeyName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || name.length > KEY_NAME_MAX || CONTROL.test(name)) {
    throw new AppError('invalid_param', `name: a key name is 1-${KEY_NAME_MAX} characters without control characters`, { param: 'name' });
  }
  return name;
}

/** Echoes user input in a message without letting it run on or carry control characters. */
export function printable(raw: string, max = 40): string {
  const cleaned = [...raw].map((ch) => (CONTROL.test(ch) ? '?' : ch)).join('');
  return cleaned.length > max ? `${cleaned.slice(0, max)}...` : cleaned;
}
