type Reference = 'oficial' | 'blue' | 'mep' | 'ccl' | 'tarjeta';

/**
 * The `dolar` object an Argentine quote answers, from each reference's ask (and the bids quoted): every reference by its
 * Spanish name, and oficial and tarjeta again under their earlier English names official and card.
 */
export function expectedDolar(
  asks: Record<Reference, number>,
  bids: Partial<Record<Reference, number>> = {},
): Record<Reference | 'official' | 'card', { ask: number; bid?: number }> {
  const dolar = Object.fromEntries(
    Object.entries(asks).map(([name, ask]) => {
      const bid = bids[name as Reference];
      return [name, bid === undefined ? { ask } : { ask, bid }];
    }),
  ) as Record<Reference, { ask: number; bid?: number }>;
  return { ...dolar, official: dolar.oficial, card: dolar.tarjeta };
}
