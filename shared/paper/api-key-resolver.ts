/** What the rate limiter and keyed routes need to know about an API key. */
export interface ResolvedApiKey {
  keyId: string;
  plan: string;
  requestsPerMinute: number;
}

export type ApiKeyLookup = ResolvedApiKey | { revoked: true } | null;

/** Looks an X-API-Key up. null: no such key. */
export interface ApiKeyResolver {
  resolve(apiKey: string): Promise<ApiKeyLookup>;
}

/** Until accounts exist, no key is valid. */
export const noApiKeys: ApiKeyResolver = { resolve: async () => null };
