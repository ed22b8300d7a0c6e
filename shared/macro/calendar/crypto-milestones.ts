/**
 * Crypto milestones of 2023-2027 with the time they happened (block or epoch time, or the first
 * trade at the US market open). Sources: the Bitcoin block explorer for block 840,000; the Ethereum
 * Foundation blog announcements with their activation epochs; the SEC approval orders and the
 * exchanges' first trading day for the spot ETFs. Future upgrades are added once their activation
 * epoch or block is fixed.
 */

export interface Milestone {
  /** UTC, ISO 8601. */
  at: string;
  title: string;
  desc: string;
  impact: 1 | 2 | 3;
}

export const CRYPTO_MILESTONES: readonly Milestone[] = [
  {
    at: '2023-04-12T22:27:35Z',
    title: 'Ethereum Shapella upgrade',
    desc: 'Shanghai/Capella at epoch 194048: staked ETH withdrawals enabled',
    impact: 2,
  },
  {
    at: '2024-01-11T14:30:00Z',
    title: 'US spot Bitcoin ETFs start trading',
    desc: 'First trading day after the SEC approval of January 10, 2024',
    impact: 3,
  },
  {
    at: '2024-03-13T13:55:35Z',
    title: 'Ethereum Dencun upgrade',
    desc: 'Deneb/Cancun at epoch 269568: blob transactions (EIP-4844) for rollups',
    impact: 2,
  },
  {
    at: '2024-04-20T00:09:27Z',
    title: 'Bitcoin halving',
    desc: 'Block 840,000: block subsidy from 6.25 to 3.125 BTC',
    impact: 3,
  },
  {
    at: '2024-07-23T13:30:00Z',
    title: 'US spot Ether ETFs start trading',
    desc: 'First trading day of the spot Ether ETFs',
    impact: 2,
  },
  {
    at: '2025-05-07T10:05:11Z',
    title: 'Ethereum Pectra upgrade',
    desc: 'Prague/Electra at epoch 364032: larger validator balances, EIP-7702 account code',
    impact: 2,
  },
  {
    at: '2025-12-03T21:49:11Z',
    title: 'Ethereum Fusaka upgrade',
    desc: 'Fulu/Osaka at epoch 411392: PeerDAS data availability sampling',
    impact: 2,
  },
];
