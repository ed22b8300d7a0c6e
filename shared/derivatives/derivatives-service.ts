/** What the funding, open-interest and long/short routes read: the jobs' snapshots, or 503 until the first one exists. */
import { AppError } from '../core/errors.js';
import type { DerivativesStore, FundingRow, LongShortRow, OpenInterestSnapshot, Snapshot } from './derivatives-store.js';

function required<T>(value: T | null, what: string): T {
  if (value === null) throw new AppError('upstream_unavailable', `${what} not collected yet`);
  return value;
}

export class DerivativesService {
  constructor(private readonly store: DerivativesStore) {}

  async funding(): Promise<Snapshot<FundingRow>> {
    return required(await this.store.funding(), 'funding rates');
  }

  async openInterest(): Promise<OpenInterestSnapshot> {
    return required(await this.store.openInterest(), 'open interest');
  }

  async longShort(): Promise<Snapshot<LongShortRow>> {
    return required(await this.store.longShort(), 'long/short ratios');
  }
}
