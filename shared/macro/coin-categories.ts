/**
 * CoinGecko category ids accepted before the first category list has been fetched (the CoinGecko
 * job stores the full list, about 600 ids, and that list wins once it exists). A snapshot of
 * common ids from CoinGecko's /coins/categories/list.
 */
export const FALLBACK_CATEGORY_IDS: readonly string[] = [
  'layer-1',
  'layer-2',
  'smart-contract-platform',
  'decentralized-finance-defi',
  'stablecoins',
  'meme-token',
  'artificial-intelligence',
  'gaming',
  'real-world-assets-rwa',
  'exchange-based-tokens',
  'decentralized-exchange',
  'lending-borrowing',
  'liquid-staking-tokens',
  'non-fungible-tokens-nft',
  'metaverse',
  'oracle',
  'privacy-coins',
  'solana-ecosystem',
  'ethereum-ecosystem',
  'bnb-chain-ecosystem',
  'base-ecosystem',
  'arbitrum-ecosystem',
  'infrastructure',
  'depin',
];

/** What a category id looks like: lowercase slug. */
export const CATEGORY_ID = /^[a-z0-9][a-z0-9-]{0,79}$/;
