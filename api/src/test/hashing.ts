/**
 * The argon2id cost of passwords hashed in the api tests: the smallest the algorithm allows, one
 * pass, one lane. Production keeps the library's defaults (64 MiB, three passes, four lanes), which
 * cost a tenth of a CPU-second per hash and were most of the api suite's CPU on two cores. Only the
 * cost changes: the hashes stay argon2id, and `verify` reads the cost from each hash. Inside a test
 * file `setup.ts` applies it to every `argon2.hash`; the templates are seeded in jest's global setup,
 * where no mock applies, so `template.ts` passes it to the seed.
 */
export const TEST_HASH_OPTIONS = { memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;
