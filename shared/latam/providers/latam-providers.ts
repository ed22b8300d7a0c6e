/** HTTP clients of the regional-quote providers; each answer is parsed before it is returned. */
import type { DataProvider } from '../../http/provider-urls.js';
import { providerUrl, type ProviderHttp } from '../../http/provider-http.js';
import {
  parseAwesomeUsdBrl,
  parseFoxbitTicker,
  parseMercadoBitcoinTickers,
  parsePtax,
  type BookTop,
  type UsdBrlRate,
} from './brl-formats.js';
import { parseCriptoyaQuotes, parseDolar, type CriptoyaQuote, type ReferenceDollars } from './criptoya-format.js';

/** Volumes asked of CriptoYa: 1 USDT and 0.1 BTC (the fee-inclusive price depends on the size). */
export const USDT_VOLUME = 1;
export const BTC_VOLUME = 0.1;
/** Days of PTAX bulletins asked for (weekends and holidays have none). */
const PTAX_DAYS = 7;

export interface BrlPair {
  btc?: BookTop;
  usdt?: BookTop;
}

export class CriptoyaClient {
  constructor(
    private readonly base: string,
    private readonly http: ProviderHttp,
  ) {}

  async quotes(coin: 'usdt' | 'btc', fiat: 'ars' | 'brl', volume: number): Promise<CriptoyaQuote[]> {
    return parseCriptoyaQuotes(await this.http.get(providerUrl(this.base, `/api/${coin}/${fiat}/${volume}`)));
  }

  async dolar(): Promise<ReferenceDollars> {
    return parseDolar(await this.http.get(providerUrl(this.base, '/api/dolar')));
  }
}

const mmddyyyy = (ms: number): string => {
  const d = new Date(ms);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}-${d.getUTCFullYear()}`;
};

/** The commercial dollar: AwesomeAPI, and the central bank's PTAX when AwesomeAPI fails. */
export class UsdBrlClient {
  constructor(
    private readonly awesomeBase: string,
    private readonly ptaxBase: string,
    private readonly http: ProviderHttp,
  ) {}

  async rate(now: number): Promise<UsdBrlRate> {
    try {
      return parseAwesomeUsdBrl(await this.http.get(providerUrl(this.awesomeBase, '/json/last/USD-BRL')));
    } catch (awesomeError) {
      try {
        return parsePtax(await this.http.get(this.ptaxUrl(now)));
      } catch (ptaxError) {
        throw new Error(`awesomeapi: ${(awesomeError as Error).message}; bcb-ptax: ${(ptaxError as Error).message}`);
      }
    }
  }

  ptaxUrl(now: number): string {
    const from = mmddyyyy(now - PTAX_DAYS * 86_400_000);
    const to = mmddyyyy(now);
    return (
      `${this.ptaxBase}/olinda/servico/PTAX/versao/v1/odata/` +
      'CotacaoDolarPeriodo(dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)' +
      `?@dataInicial='${from}'&@dataFinalCotacao='${to}'&$format=json&$select=cotacaoCompra,cotacaoVenda,dataHoraCotacao`
    );
  }
}

export class MercadoBitcoinClient {
  constructor(
    private readonly base: string,
    private readonly http: ProviderHttp,
  ) {}

  async tickers(): Promise<BrlPair> {
    const pairs = parseMercadoBitcoinTickers(
      await this.http.get(providerUrl(this.base, '/api/v4/tickers', { symbols: 'BTC-BRL,USDT-BRL' })),
    );
    return { btc: pairs['BTC-BRL'], usdt: pairs['USDT-BRL'] };
  }
}

export class FoxbitClient {
  constructor(
    private readonly base: string,
    private readonly http: ProviderHttp,
  ) {}

  async tickers(): Promise<BrlPair> {
    const [btc, usdt] = await Promise.all(
      ['btcbrl', 'usdtbrl'].map(async (market) =>
        parseFoxbitTicker(await this.http.get(providerUrl(this.base, `/rest/v3/markets/${market}/ticker/24hr`))),
      ),
    );
    return { btc, usdt };
  }
}

export interface LatamProviders {
  criptoya: CriptoyaClient;
  usdBrl: UsdBrlClient;
  mercadoBitcoin: MercadoBitcoinClient;
  foxbit: FoxbitClient;
}

export function createLatamProviders(urls: Record<DataProvider, string>, http: ProviderHttp): LatamProviders {
  return {
    criptoya: new CriptoyaClient(urls.criptoya, http),
    usdBrl: new UsdBrlClient(urls.awesomeapi, urls['bcb-ptax'], http),
    mercadoBitcoin: new MercadoBitcoinClient(urls['mercado-bitcoin'], http),
    foxbit: new FoxbitClient(urls.foxbit, http),
  };
}
