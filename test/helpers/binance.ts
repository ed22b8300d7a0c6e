import type { AccountServices } from '../../shared/paper/accounts/account-services.js';

/** A key with its HMAC secret, as ccxt takes it. */
export interface SecretKey {
  apiKey: string;
  secret: string;
}

let emails = 0;

/** A Business key of a new account, with an HMAC secret unless `secret` is false. */
export async function newSecretKey(accounts: AccountServices, secret = true): Promise<SecretKey> {
  const created = await accounts.service.createKey({ email: `binance${++emails}-${Date.now()}@example.org`, plan: 'business', secret });
  return { apiKey: created.apiKey, secret: created.secret ?? '' };
}

/** ccxt binanceusdm's REST hosts (every USDⓈ-M one, /futures/data, and the spot API's for the coins list) at a test API. */
export function binanceHosts(apiUrl: string): Record<string, string> {
  const base = `${apiUrl}/fapi`;
  return {
    sapi: `${apiUrl}/sapi/v1`,
    fapiPublic: `${base}/v1`,
    fapiPublicV2: `${base}/v2`,
    fapiPublicV3: `${base}/v3`,
    fapiPrivate: `${base}/v1`,
    fapiPrivateV2: `${base}/v2`,
    fapiPrivateV3: `${base}/v3`,
    fapiData: `${apiUrl}/futures/data`,
  };
}
