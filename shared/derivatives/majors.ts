/** The majors the long/short ratio covers (the same eight as /api/v1/prices). */
export const DERIVATIVE_MAJORS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT', 'ADAUSDT', 'AVAXUSDT'] as const;
