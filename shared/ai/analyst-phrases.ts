/** The built-in analyst's sentences in English, Spanish and Portuguese. Pure. */
import type { AnswerLang, Brief, BriefEvent, BriefIndicators, TradePlan } from './brief.js';

interface ScoreParts {
  technicals: number;
  positioning: number;
  flow: number;
  total: number;
}

export interface Phrases {
  headline(symbol: string, intervalMinutes: number, bias: 'long' | 'short' | 'neutral', score: ScoreParts): string;
  technicals(indicators: BriefIndicators, price: Brief['price']): string;
  noIndicators: string;
  /** null when nothing is known. */
  derivatives(d: Brief['derivatives']): string | null;
  liquidations(l: Brief['liquidations']): string;
  macro(event: BriefEvent): string;
  noMacro: string;
  plan(plan: TradePlan): string;
  guards: { no_bias: string; no_indicators: string; stretched: string; macro: string; flat: string };
}

const usd = (x: number): string =>
  x >= 1e9
    ? `$${(x / 1e9).toFixed(2)}B`
    : x >= 1e6
      ? `$${(x / 1e6).toFixed(2)}M`
      : x >= 1e3
        ? `$${(x / 1e3).toFixed(1)}k`
        : `$${Math.round(x)}`;
const signed = (x: number, dp = 2): string => `${x >= 0 ? '+' : ''}${x.toFixed(dp)}`;
/** ' (+1.42% in 24 h)', with the language's word for "in"; nothing when the change is unknown. */
const dayChange = (pct: number | null, inWord: string): string => (pct === null ? '' : ` (${signed(pct)}% ${inWord} 24 h)`);
const interval = (minutes: number): string =>
  minutes % 1440 === 0 ? `${minutes / 1440}d` : minutes % 60 === 0 ? `${minutes / 60}h` : `${minutes}m`;
const points = (s: ScoreParts): string =>
  `${signed(s.total, 0)} = ${signed(s.technicals, 0)} / ${signed(s.positioning, 0)} / ${signed(s.flow, 0)}`;
const clusterText = (l: Brief['liquidations'], above: string, below: string): string =>
  l.clusters
    .map((c) => `${c.price} (${c.side}, ${usd(c.est_notional)}, ${signed(c.distance_pct)}% ${c.distance_pct >= 0 ? above : below})`)
    .join('; ');

function derivativesIn(words: { funding: string; oi: string; longs: string }) {
  return (d: Brief['derivatives']): string | null => {
    const parts = [
      d.funding_rate_pct === null ? null : `${words.funding} ${signed(d.funding_rate_pct, 4)}%`,
      d.open_interest_usd === null ? null : `${words.oi} ${usd(d.open_interest_usd)}`,
      d.long_pct === null ? null : `${words.longs} ${d.long_pct.toFixed(1)}%`,
    ].filter((part): part is string => part !== null);
    return parts.length === 0 ? null : `${parts.join(', ')}.`;
  };
}

const en: Phrases = {
  headline: (symbol, minutes, bias, s) =>
    `${symbol} ${interval(minutes)}: bias ${bias} (rule points ${points(s)}: technicals / positioning / flow).`,
  technicals: (i, p) =>
    `Price ${p.price}${dayChange(p.change_24h_pct, 'in')}; on ${i.timeframe}: score ${i.score}/100, trend ${i.trend}, ` +
    `RSI ${i.rsi.toFixed(1)}, MACD histogram ${i.macd.histogram}, ATR ${i.atr} (${i.atr_pct.toFixed(2)}% of the price).`,
  noIndicators: 'No indicators: too few candles and no screener row for this symbol.',
  derivatives: derivativesIn({ funding: 'Funding per interval', oi: 'open interest', longs: 'long accounts' }),
  liquidations: (l) =>
    `Liquidations in the last ${l.window_minutes} min: longs ${usd(l.long_usd)}, shorts ${usd(l.short_usd)}.` +
    (l.clusters.length > 0 ? ` Modelled clusters: ${clusterText(l, 'above', 'below')}.` : ''),
  macro: (e) => `Next macro event: ${e.title} in ${e.in_hours.toFixed(1)} h (impact ${e.impact}/3).`,
  noMacro: 'No macro event in the next 7 days.',
  plan: (p) => `Plan: ${p.bias} at ${p.entry}, stop ${p.stop}, targets ${p.targets.join(' / ')} (1R/2R/3R), leverage up to ${p.leverage}x.`,
  guards: {
    no_bias: 'No setup: the rules do not agree on a direction.',
    no_indicators: 'No setup: without the ATR there is no stop distance to plan with.',
    stretched: 'No setup: RSI is stretched in that direction; wait for a pullback.',
    macro: 'No setup: a high-impact macro event is less than 24 h away.',
    flat: 'No setup: the ATR is too small next to the price to place a stop.',
  },
};

const es: Phrases = {
  headline: (symbol, minutes, bias, s) =>
    `${symbol} ${interval(minutes)}: sesgo ${bias === 'long' ? 'alcista (long)' : bias === 'short' ? 'bajista (short)' : 'neutral'} ` +
    `(puntos ${points(s)}: técnico / posicionamiento / flujo).`,
  technicals: (i, p) =>
    `Precio ${p.price}${dayChange(p.change_24h_pct, 'en')}; en ${i.timeframe}: puntaje ${i.score}/100, tendencia ${i.trend}, ` +
    `RSI ${i.rsi.toFixed(1)}, histograma MACD ${i.macd.histogram}, ATR ${i.atr} (${i.atr_pct.toFixed(2)}% del precio).`,
  noIndicators: 'Sin indicadores: pocas velas y ninguna fila del screener para este símbolo.',
  derivatives: derivativesIn({ funding: 'Funding por intervalo', oi: 'interés abierto', longs: 'cuentas long' }),
  liquidations: (l) =>
    `Liquidaciones en los últimos ${l.window_minutes} min: longs ${usd(l.long_usd)}, shorts ${usd(l.short_usd)}.` +
    (l.clusters.length > 0 ? ` Clusters modelados: ${clusterText(l, 'arriba', 'abajo')}.` : ''),
  macro: (e) => `Próximo evento macro: ${e.title} en ${e.in_hours.toFixed(1)} h (impacto ${e.impact}/3).`,
  noMacro: 'Ningún evento macro en los próximos 7 días.',
  plan: (p) =>
    `Plan: ${p.bias} en ${p.entry}, stop ${p.stop}, objetivos ${p.targets.join(' / ')} (1R/2R/3R), apalancamiento hasta ${p.leverage}x.`,
  guards: {
    no_bias: 'Sin setup: las reglas no coinciden en una dirección.',
    no_indicators: 'Sin setup: sin ATR no hay distancia de stop para planificar.',
    stretched: 'Sin setup: el RSI está extendido en esa dirección; esperar un retroceso.',
    macro: 'Sin setup: falta menos de 24 h para un evento macro de alto impacto.',
    flat: 'Sin setup: el ATR es demasiado chico frente al precio para ubicar un stop.',
  },
};

const pt: Phrases = {
  headline: (symbol, minutes, bias, s) =>
    `${symbol} ${interval(minutes)}: viés ${bias === 'long' ? 'de alta (long)' : bias === 'short' ? 'de baixa (short)' : 'neutro'} ` +
    `(pontos ${points(s)}: técnico / posicionamento / fluxo).`,
  technicals: (i, p) =>
    `Preço ${p.price}${dayChange(p.change_24h_pct, 'em')}; em ${i.timeframe}: pontuação ${i.score}/100, tendência ${i.trend}, ` +
    `RSI ${i.rsi.toFixed(1)}, histograma MACD ${i.macd.histogram}, ATR ${i.atr} (${i.atr_pct.toFixed(2)}% do preço).`,
  noIndicators: 'Sem indicadores: poucas velas e nenhuma linha do screener para este símbolo.',
  derivatives: derivativesIn({ funding: 'Funding por intervalo', oi: 'open interest', longs: 'contas long' }),
  liquidations: (l) =>
    `Liquidações nos últimos ${l.window_minutes} min: longs ${usd(l.long_usd)}, shorts ${usd(l.short_usd)}.` +
    (l.clusters.length > 0 ? ` Clusters modelados: ${clusterText(l, 'acima', 'abaixo')}.` : ''),
  macro: (e) => `Próximo evento macro: ${e.title} em ${e.in_hours.toFixed(1)} h (impacto ${e.impact}/3).`,
  noMacro: 'Nenhum evento macro nos próximos 7 dias.',
  plan: (p) => `Plano: ${p.bias} em ${p.entry}, stop ${p.stop}, alvos ${p.targets.join(' / ')} (1R/2R/3R), alavancagem até ${p.leverage}x.`,
  guards: {
    no_bias: 'Sem setup: as regras não concordam numa direção.',
    no_indicators: 'Sem setup: sem o ATR não há distância de stop para planejar.',
    stretched: 'Sem setup: o RSI está esticado nessa direção; espere um recuo.',
    macro: 'Sem setup: falta menos de 24 h para um evento macro de alto impacto.',
    flat: 'Sem setup: o ATR é pequeno demais perto do preço para colocar um stop.',
  },
};

export const PHRASES: Record<AnswerLang, Phrases> = { en, es, pt };
