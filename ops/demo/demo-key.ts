/** The demo's API key: a key is shown only when it is created, so each demo start makes a fresh one. */
import { isAppError } from '../../shared/core/errors.js';
import type { AccountService } from '../../shared/paper/accounts/account-service.js';
import type { PlanId } from '../../shared/paper/plans.js';

export const DEMO_EMAIL = 'demo@perpdesk.local';
export const DEMO_KEY_NAME = 'demo';
/** Pro: the lowest plan with webhooks, so the demo can try every feature of the bot API. */
export const DEMO_PLAN: PlanId = 'pro';

/**
 * Makes sure the demo account exists on the demo plan (at least 30 days left at every start),
 * revokes its previous demo key (or keys) and creates a new one named demo, whose plaintext it answers.
 */
export async function issueDemoKey(accounts: AccountService): Promise<string> {
  try {
    const { keys } = await accounts.listKeys(DEMO_EMAIL);
    for (const key of keys) {
      if (key.name === DEMO_KEY_NAME && key.revokedAt === null) await accounts.revokeKey(DEMO_EMAIL, key.id);
    }
  } catch (error) {
    if (!(isAppError(error) && error.code === 'not_found')) throw error;
  }
  const created = await accounts.createKey({ email: DEMO_EMAIL, name: DEMO_KEY_NAME, plan: DEMO_PLAN });
  return created.apiKey;
}
