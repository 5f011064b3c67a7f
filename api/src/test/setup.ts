import { TEST_HASH_OPTIONS } from './hashing';

// Each api test builds an app on a fresh database (a seeded PostgreSQL one takes seconds on a loaded
// machine): hooks and tests get 20 s rather than jest's 5 s. Speed targets live in bench/, not here.
jest.setTimeout(20_000);

// Passwords the app hashes during a test (sign-up, resets, changes) at the test cost (hashing.ts).
jest.mock('argon2', () => {
  const actual = jest.requireActual('argon2');
  return {
    ...actual,
    hash: (password: string, options: Record<string, unknown> = {}) =>
      actual.hash(password, { ...options, ...TEST_HASH_OPTIONS }),
  };
});
