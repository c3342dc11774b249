/**
 * The AppError a call fails with. Each fails the test when the call does not fail, or fails
 * with something other than an AppFailure (a plain Error would reach a front end as "internal").
 */
import { expect } from 'vitest';
import { AppFailure, type AppError } from '../../shared/errors';

export function failureOf(run: () => unknown): AppError {
  try {
    run();
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(AppFailure);
    return (thrown as AppFailure).error;
  }
  throw new Error('expected the call to fail with an AppFailure');
}

export async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  const thrown = await promise.then(
    () => new Error('expected the promise to reject with an AppFailure'),
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(AppFailure);
  return (thrown as AppFailure).error;
}
