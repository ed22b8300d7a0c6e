/** Every simulated data provider, by the path prefix it is mounted under (and the name /__sim/provider switches). */
import { alternativeMe } from './alternative-me.js';
import { awesomeapi } from './awesomeapi.js';
import { bcbPtax } from './bcb-ptax.js';
import { coingecko } from './coingecko.js';
import { criptoya } from './criptoya.js';
import { defillama } from './defillama.js';
import { foxbit } from './foxbit.js';
import { mercadoBitcoin } from './mercado-bitcoin.js';
import type { ProviderDeps, SimProvider } from './provider-types.js';

export type { SimProvider };

/** /<provider>/<real path>: the first segment names the provider. */
export const PROVIDER_PATH = /^\/(alternative-me|coingecko|defillama|criptoya|awesomeapi|bcb-ptax|mercado-bitcoin|foxbit)(\/.*)?$/;

export function createSimProviders(deps: ProviderDeps): Map<string, SimProvider> {
  const all = [
    alternativeMe(deps),
    coingecko(deps),
    defillama(deps),
    criptoya(deps),
    awesomeapi(deps),
    bcbPtax(deps),
    mercadoBitcoin(deps),
    foxbit(deps),
  ];
  return new Map(all.map((p) => [p.name, p]));
}
