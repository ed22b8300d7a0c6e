/** Every Redis key name the service uses, built in one place. */
export const keys = {
  rateLimitPrefix: (limit: number) => `rl:${limit}`,
};
