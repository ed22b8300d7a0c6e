import { AppError } from '../../shared/core/errors.js';

/** The AppError a promise rejects with; any other error is rethrown, and a promise that resolves fails the test. */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal (an AppError)');
}
