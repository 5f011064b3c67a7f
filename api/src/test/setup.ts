// Each api test builds an app on a fresh database (a seeded PostgreSQL one takes seconds on a loaded
// machine): hooks and tests get 20 s rather than jest's 5 s. Speed targets live in bench/, not here.
jest.setTimeout(20_000);
