/**
 * Base URLs of the data providers behind the macro and regional-quote routes. Like the exchange
 * URLs: the live hosts by default, `${SIM_URL}/<provider>` with MARKET_SOURCE=sim, and one
 * `<PROVIDER>_URL` variable each to point anywhere else (read in shared/config.ts).
 */
import Joi from 'joi';
import { serviceUrlsFrom, type MarketSource } from '../core/base-urls.js';

export type DataProvider =
  | 'alternative-me'
  | 'coingecko'
  | 'defillama'
  | 'defillama-stablecoins'
  | 'criptoya'
  | 'awesomeapi'
  | 'bcb-ptax'
  | 'mercado-bitcoin'
  | 'foxbit';

export const DATA_PROVIDERS: readonly DataProvider[] = [
  'alternative-me',
  'coingecko',
  'defillama',
  'defillama-stablecoins',
  'criptoya',
  'awesomeapi',
  'bcb-ptax',
  'mercado-bitcoin',
  'foxbit',
];

/** The live hosts (paths like /fng/ or /api/v3/global are appended). */
const LIVE_PROVIDER_URLS: Record<DataProvider, string> = {
  'alternative-me': 'https://api.alternative.me',
  coingecko: 'https://api.coingecko.com',
  defillama: 'https://api.llama.fi',
  'defillama-stablecoins': 'https://stablecoins.llama.fi',
  criptoya: 'https://criptoya.com',
  awesomeapi: 'https://economia.awesomeapi.com.br',
  'bcb-ptax': 'https://olinda.bcb.gov.br',
  'mercado-bitcoin': 'https://api.mercadobitcoin.net',
  foxbit: 'https://api.foxbit.com.br',
};

/** Where each provider lives on the simulated exchange; DefiLlama's stablecoin host shares /defillama. */
const SIM_PREFIX: Record<DataProvider, string> = {
  'alternative-me': 'alternative-me',
  coingecko: 'coingecko',
  defillama: 'defillama',
  'defillama-stablecoins': 'defillama',
  criptoya: 'criptoya',
  awesomeapi: 'awesomeapi',
  'bcb-ptax': 'bcb-ptax',
  'mercado-bitcoin': 'mercado-bitcoin',
  foxbit: 'foxbit',
};

/** ALTERNATIVE_ME_URL, COINGECKO_URL, DEFILLAMA_STABLECOINS_URL, ... */
export function providerEnvName(provider: DataProvider): string {
  return `${provider.toUpperCase().replace(/-/g, '_')}_URL`;
}

/** The Joi keys of the URL variables, for the config schema. */
export function providerUrlSchema(): Record<string, Joi.StringSchema> {
  return Object.fromEntries(DATA_PROVIDERS.map((p) => [providerEnvName(p), Joi.string().uri({ scheme: ['http', 'https'] })]));
}

/** The live hosts or the sim's paths, with any `<PROVIDER>_URL` override applied (trailing slashes dropped). */
export function providerUrlsFrom(value: Record<string, unknown>, source: MarketSource, simUrl: string): Record<DataProvider, string> {
  return serviceUrlsFrom(
    DATA_PROVIDERS,
    { live: LIVE_PROVIDER_URLS, simPath: SIM_PREFIX, envName: providerEnvName },
    value,
    source,
    simUrl,
  );
}
