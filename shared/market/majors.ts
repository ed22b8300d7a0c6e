/** The eight majors: /api/v1/prices quotes them and the long/short ratio covers them. */
export const MAJOR_PAIRS: readonly string[] = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT', 'ADAUSDT', 'AVAXUSDT'];
