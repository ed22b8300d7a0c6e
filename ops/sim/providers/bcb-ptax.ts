/** The central bank's PTAX (Olinda OData): CotacaoDolarPeriodo over a period, JSON numbers (fixtures/bcb-ptax). */
import { brasilia, USD_BRL } from './latam-market.js';
import { DAY_MS, json, type ProviderDeps, type SimProvider } from './provider-types.js';

const PTAX_PATH = '/olinda/servico/PTAX/versao/v1/odata/CotacaoDolarPeriodo(dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)';

/** 'MM-DD-YYYY' (quotes optional) -> UTC midnight ms. */
function ptaxDate(value: string | null): number | undefined {
  const m = /^'?(\d{2})-(\d{2})-(\d{4})'?$/.exec(value ?? '');
  return m ? Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2])) : undefined;
}

export function bcbPtax(deps: ProviderDeps): SimProvider {
  return {
    name: 'bcb-ptax',
    handle: ({ path, query }) => {
      if (decodeURIComponent(path) !== PTAX_PATH) return undefined;
      const from = ptaxDate(query.get('@dataInicial'));
      const to = ptaxDate(query.get('@dataFinalCotacao'));
      if (from === undefined || to === undefined)
        return json({ error: { code: 'BadRequest', message: 'dataInicial and dataFinalCotacao are required (MM-DD-YYYY)' } }, 400);
      const value: Record<string, unknown>[] = [];
      // one bulletin at 13:10 Brasília on each weekday of the period, up to now
      for (let day = from; day <= to && value.length < 31; day += DAY_MS) {
        const weekday = new Date(day).getUTCDay();
        const at = day + 16 * 3_600_000 + 10 * 60_000;
        if (weekday === 0 || weekday === 6 || at > deps.now()) continue;
        value.push({ cotacaoCompra: USD_BRL.ptaxBuy, cotacaoVenda: USD_BRL.ptaxSell, dataHoraCotacao: brasilia(at) });
      }
      return json({
        '@odata.context':
          'https://was-p.bcnet.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata$metadata' +
          '#_CotacaoDolarPeriodo(cotacaoCompra,cotacaoVenda,dataHoraCotacao)',
        value,
      });
    },
  };
}
