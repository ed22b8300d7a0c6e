/** The books of an account: 'main' plus the named books its keys were created bound to. */
import type { RedisClient } from '../../core/redis-client.js';
import { keys } from '../../redis/keys.js';
import { MAIN_BOOK } from './account-rules.js';
import type { KeyStore, KeySummary } from './key-store.js';

export interface Book {
  name: string;
  /** True for the account's own book, 'main'. */
  main: boolean;
  /** When it came into existence (epoch ms): the account's creation for 'main', else its first key's. */
  created: number;
}

export interface BookWithKeys extends Book {
  /** The keys that trade this book (unbound keys trade 'main'), revoked ones included, oldest first. */
  keys: KeySummary[];
}

/** What the /accounts route and key management read about books. */
export interface BookRegistry {
  /** Every book of the account, 'main' first, then the named books by creation. */
  listBooks(accountId: string): Promise<Book[]>;
  /** listBooks with the keys bound to each book (never the key itself nor its digest). */
  listBooksWithKeys(accountId: string): Promise<BookWithKeys[]>;
  /** True for 'main' and for a named book that exists. */
  hasBook(accountId: string, name: string): Promise<boolean>;
  /** Named books (besides 'main'), what max_books counts. */
  countNamedBooks(accountId: string): Promise<number>;
}

export class RedisBookRegistry implements BookRegistry {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyStore: KeyStore,
  ) {}

  async listBooks(accountId: string): Promise<Book[]> {
    const [created, named] = await Promise.all([
      this.redis.hget(keys.accountProfile(accountId), 'created'),
      this.redis.zrange(keys.accountBooks(accountId), '0', '-1', 'WITHSCORES'),
    ]);
    const books: Book[] = [{ name: MAIN_BOOK, main: true, created: Number(created ?? 0) }];
    for (let i = 0; i + 1 < named.length; i += 2) books.push({ name: named[i], main: false, created: Number(named[i + 1]) });
    return books;
  }

  async listBooksWithKeys(accountId: string): Promise<BookWithKeys[]> {
    const [books, all] = await Promise.all([this.listBooks(accountId), this.keyStore.list(accountId)]);
    return books.map((book) => ({ ...book, keys: all.filter((key) => key.book === book.name) }));
  }

  async hasBook(accountId: string, name: string): Promise<boolean> {
    if (name === MAIN_BOOK) return true;
    return (await this.redis.zscore(keys.accountBooks(accountId), name)) !== null;
  }

  async countNamedBooks(accountId: string): Promise<number> {
    return this.redis.zcard(keys.accountBooks(accountId));
  }
}
