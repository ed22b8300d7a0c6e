/** Reads what the ledger audit compares: each book's counters and its closed trades since the last reset, in one snapshot per book. */
import type { RedisClient } from '../../core/redis-client.js';
import { keys } from '../../redis/keys.js';
import { scanStep } from '../../redis/scan.js';
import { MAIN_BOOK } from '../accounts/account-rules.js';
import { auditBook, prunedTrades, type AuditDifference, type LedgerTrade } from './ledger-audit.js';
import { bookCounters } from '../positions/book-counters.js';

export interface AuditedAccount {
  accountId: string;
  email: string;
}

export interface BookAudit {
  account: AuditedAccount;
  book: string;
  trades: number;
  differences: AuditDifference[];
}

function ledgerTrade(raw: string): LedgerTrade {
  const { pnl_usd, liquidated } = JSON.parse(raw) as { pnl_usd?: number; liquidated?: boolean };
  return { pnl_usd: pnl_usd ?? 0, liquidated: liquidated === true };
}

/**
 * Read-only: SCAN, GET, SMEMBERS, ZRANGE, one MULTI per book of HGETALL, HVALS, ZRANGE, HGETALL (the pruned counters)
 * and HVALS of its archives. Never writes.
 */
export class LedgerReader {
  constructor(private readonly redis: RedisClient) {}

  /** Every account of the e-mail index, by e-mail. */
  async accounts(): Promise<AuditedAccount[]> {
    const found: AuditedAccount[] = [];
    const prefix = keys.accountByEmailPattern.slice(0, -1);
    let cursor = '0';
    do {
      const [next, names] = await scanStep(this.redis, cursor, { match: keys.accountByEmailPattern, count: 500 });
      cursor = next;
      if (names.length === 0) continue;
      // one GET each (an MGET or a pipeline over keys of several hash slots fails under Redis Cluster), sent at once
      const ids = await Promise.all(names.map((name) => this.redis.get(name)));
      names.forEach((name, i) => {
        const id = ids[i];
        if (typeof id === 'string') found.push({ accountId: id, email: name.slice(prefix.length) });
      });
    } while (cursor !== '0');
    return found.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  }

  /** The account of a normalized e-mail, or null. */
  async account(email: string): Promise<AuditedAccount | null> {
    const id = await this.redis.get(keys.accountByEmail(email));
    return id === null ? null : { accountId: id, email };
  }

  /** The account's books: main, its named books, and any book that traded. */
  async books(accountId: string): Promise<string[]> {
    const [traded, named] = await Promise.all([
      this.redis.smembers(keys.paperBooks(accountId)),
      this.redis.zrange(keys.accountBooks(accountId), '0', '-1'),
    ]);
    return [...new Set([MAIN_BOOK, ...named, ...traded])].sort();
  }

  /**
   * One book's counters, closed trades, archives and pruned counters, read in one transaction so a close, a reset or a
   * prune in between cannot split them. The archives are listed first and read in the transaction; when its own list
   * differs (a reset or a prune changed them meanwhile) it reads again.
   */
  async auditBook(account: AuditedAccount, book: string): Promise<BookAudit> {
    const { accountId } = account;
    let listed = await this.redis.zrange(keys.bookArchives(accountId, book), '0', '-1');
    for (let attempt = 1; ; attempt++) {
      const multi = this.redis
        .multi()
        .hgetall(keys.bookStats(accountId, book))
        .hvals(keys.bookClosed(accountId, book))
        .zrange(keys.bookArchives(accountId, book), '0', '-1')
        .hgetall(keys.bookPruned(accountId, book));
      for (const resetTs of listed) multi.hvals(keys.bookArchiveClosed(accountId, book, Number(resetTs)));
      const replies = await multi.exec();
      if (replies === null) throw new Error(`the read of book ${book} was aborted`);
      const failed = replies.find(([error]) => error !== null);
      if (failed) throw failed[0] ?? new Error('unreachable');
      const [stats, closed, resets, pruned, ...archives] = replies.map(([, value]) => value) as [
        Record<string, string>,
        string[],
        string[],
        Record<string, string>,
        ...string[][],
      ];
      if (resets.join() === listed.join()) {
        const counters = bookCounters(stats);
        const archived = archives.flat().map(ledgerTrade);
        const differences = auditBook(counters, closed.map(ledgerTrade), archived, prunedTrades(pruned, counters.reset_ts));
        return { account, book, trades: closed.length, differences };
      }
      if (attempt === 5) throw new Error(`the archives of book ${book} changed during ${attempt} reads`);
      listed = resets;
    }
  }

  async auditAccount(account: AuditedAccount): Promise<BookAudit[]> {
    const audits: BookAudit[] = [];
    for (const book of await this.books(account.accountId)) audits.push(await this.auditBook(account, book));
    return audits;
  }
}
