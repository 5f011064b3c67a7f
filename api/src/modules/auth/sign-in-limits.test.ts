import {
  clearRateLimit,
  hitRateLimit,
  hitRateLimitWhenDue,
  peekRateLimit,
  refundRateLimit,
} from '../../db/rate-limits';
import { createTestDatabase, type TestDatabase } from '../../test/app';
import { migrateToLatest } from '../../db/migrate';
import {
  SIGN_IN_LIMITS,
  SIGN_IN_THROTTLE,
  beginSignInAttempt,
  clearSignInFailures,
  signInSucceeded,
  signInWaitSeconds,
  waitText,
  type LimitDecision,
} from './sign-in-limits';

describe('rate_limits in the database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateToLatest(database.db, database.dialect);
  });
  afterAll(() => database.destroy());

  it('counts in fixed windows and starts again once a window has ended', async () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    expect(await hitRateLimit(database.db, 'k', 60_000, now)).toEqual({ hits: 1, resetAt: '2026-01-01T00:01:00.000Z' });
    expect(await hitRateLimit(database.db, 'k', 60_000, new Date('2026-01-01T00:00:30.000Z'))).toEqual({
      hits: 2,
      resetAt: '2026-01-01T00:01:00.000Z',
    });
    expect(await peekRateLimit(database.db, 'k', new Date('2026-01-01T00:00:59.000Z'))).toEqual({
      hits: 2,
      resetAt: '2026-01-01T00:01:00.000Z',
    });
    expect(await peekRateLimit(database.db, 'k', new Date('2026-01-01T00:01:00.000Z'))).toBeNull();
    expect(await hitRateLimit(database.db, 'k', 60_000, new Date('2026-01-01T00:01:00.000Z'))).toEqual({
      hits: 1,
      resetAt: '2026-01-01T00:02:00.000Z',
    });
  });

  it('gives hits back (never below 0) and clears', async () => {
    const now = new Date();
    await hitRateLimit(database.db, 'r', 60_000, now);
    await refundRateLimit(database.db, 'r');
    await refundRateLimit(database.db, 'r');
    expect((await peekRateLimit(database.db, 'r', now))!.hits).toBe(0);
    await clearRateLimit(database.db, 'r');
    expect(await peekRateLimit(database.db, 'r', now)).toBeNull();
  });

  it('counts every one of many parallel hits', async () => {
    const counts = await Promise.all(Array.from({ length: 12 }, () => hitRateLimit(database.db, 'parallel', 60_000)));
    expect(counts.map((c) => c.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('counts a hit only when it is due, sliding the row on, and forgets a row untouched for its time', async () => {
    const at = (ms: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + ms);
    const waits = [0, 1_000, 5_000];
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(0))).toEqual({
      hits: 1,
      resetAt: '2026-01-01T00:01:00.000Z',
    });
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(999))).toBeNull();
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(1_000))).toEqual({
      hits: 2,
      resetAt: '2026-01-01T00:01:01.000Z',
    });
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(5_999))).toBeNull();
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(6_000))).toEqual({
      hits: 3,
      resetAt: '2026-01-01T00:01:06.000Z',
    });
    // the last wait holds for any count beyond
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(10_999))).toBeNull();
    expect((await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(11_000)))!.hits).toBe(4);
    expect(await peekRateLimit(database.db, 'due', at(11_000))).toEqual({
      hits: 4,
      resetAt: '2026-01-01T00:01:11.000Z',
    });
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(71_000))).toEqual({
      hits: 1,
      resetAt: '2026-01-01T00:02:11.000Z',
    });
  });

  it('lets exactly one of parallel hits through when one is due', async () => {
    const now = new Date();
    const waits = [0, 0, 60_000];
    await hitRateLimitWhenDue(database.db, 'due-parallel', 60_000, waits, now);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => hitRateLimitWhenDue(database.db, 'due-parallel', 60_000, waits, now)),
    );
    expect(answers.filter(Boolean)).toEqual([expect.objectContaining({ hits: 2 })]);
    expect((await peekRateLimit(database.db, 'due-parallel', now))!.hits).toBe(2);
  });
});

describe('sign-in throttling', () => {
  let database: TestDatabase;
  let db: TestDatabase['db'];
  let accounts = 0;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateToLatest(database.db, database.dialect);
    db = database.db;
  });
  afterAll(() => database.destroy());

  const T0 = Date.parse('2026-03-02T09:00:00.000Z');
  const at = (ms: number) => new Date(T0 + ms);
  /** A fresh account (and so fresh pairs) for each test. */
  const newAccount = () => `staff${(accounts += 1)}@demo.test`;
  /** A failed attempt: taken, and the password turned out wrong (nothing more to do). */
  const attempt = (email: string, address: string, ms: number) => beginSignInAttempt(db, email, address, at(ms));
  const refused = (retryAfterSeconds: number): LimitDecision => ({ allowed: false, retryAfterSeconds });
  const allowed: LimitDecision = { allowed: true };

  async function fail(email: string, address: string, times: number, ms = 0) {
    for (let i = 0; i < times; i++) expect(await attempt(email, address, ms)).toEqual(allowed);
  }

  it('waits 1, 2, 4 … seconds after the first four failures, at most a minute', () => {
    expect([0, 1, 2, 3, 4].map(signInWaitSeconds)).toEqual([0, 0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9, 10, 11, 12, 1_000].map(signInWaitSeconds)).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    expect(SIGN_IN_THROTTLE.maxWaitSeconds).toBeLessThanOrEqual(60);
  });

  it('words a wait in seconds under a minute, in minutes from a minute on', () => {
    expect([1, 2, 30, 59, 60, 61, 900].map(waitText)).toEqual([
      '1 second',
      '2 seconds',
      '30 seconds',
      '59 seconds',
      '1 minute',
      '2 minutes',
      '15 minutes',
    ]);
  });

  it('slows down the address that failed, not the account: another address gets in at once', async () => {
    const email = newAccount();
    await fail(email, '10.0.0.1', 5);
    expect(await attempt(email, '10.0.0.1', 0)).toEqual(refused(1));
    expect(await attempt(email, '10.0.0.1', 999)).toEqual(refused(1));
    expect(await attempt(email, '10.0.0.2', 0)).toEqual(allowed);
    await signInSucceeded(db, email, '10.0.0.2', at(0));
    // the same address once the wait has passed; the right password clears its failures
    expect(await attempt(email, '10.0.0.1', 1_000)).toEqual(allowed);
    await signInSucceeded(db, email, '10.0.0.1', at(1_000));
    await fail(email, '10.0.0.1', 5, 1_000);
    expect(await attempt(email, '10.0.0.1', 1_000)).toEqual(refused(1));
  });

  it('doubles the wait with each further failure up to a minute, and refused attempts do not count', async () => {
    const email = newAccount();
    await fail(email, '10.0.1.1', 5);
    let ms = 0;
    for (const wait of [1, 2, 4, 8, 16, 32, 60, 60, 60]) {
      // trying again early is refused (each time with the wait left, never more than a minute) and changes nothing
      expect(await attempt(email, '10.0.1.1', ms)).toEqual(refused(wait));
      expect(await attempt(email, '10.0.1.1', ms + wait * 1000 - 1)).toEqual(refused(1));
      ms += wait * 1000;
      expect(await attempt(email, '10.0.1.1', ms)).toEqual(allowed);
    }
    expect((await peekRateLimit(db, `sign-in:pair:10.0.1.1:${email}`, at(ms)))!.hits).toBe(14);
  });

  it(`forgets a pair's failures ${SIGN_IN_THROTTLE.forgetMinutes} minutes after the latest`, async () => {
    const email = newAccount();
    await fail(email, '10.0.2.1', 5);
    const forget = SIGN_IN_THROTTLE.forgetMinutes * 60_000;
    expect(await attempt(email, '10.0.2.1', forget - 1)).toEqual(allowed);
    // that attempt counted as a sixth failure: two seconds to wait
    expect(await attempt(email, '10.0.2.1', forget)).toEqual(refused(2));
    await fail(email, '10.0.2.1', 5, 2 * forget);
    expect(await attempt(email, '10.0.2.1', 2 * forget)).toEqual(refused(1));
  });

  it('counts parallel guesses before any password is checked: only the free ones get through', async () => {
    const email = newAccount();
    const answers = await Promise.all(Array.from({ length: 12 }, () => attempt(email, '10.0.3.1', 0)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(SIGN_IN_THROTTLE.freeFailures + 1);
    expect(answers.filter((a) => !a.allowed)).toEqual(
      Array.from({ length: 12 - SIGN_IN_THROTTLE.freeFailures - 1 }, () => refused(1)),
    );
    expect((await peekRateLimit(db, `sign-in:pair:10.0.3.1:${email}`, at(0)))!.hits).toBe(
      SIGN_IN_THROTTLE.freeFailures + 1,
    );
    expect((await peekRateLimit(db, 'sign-in:address:10.0.3.1', at(0)))!.hits).toBe(SIGN_IN_THROTTLE.freeFailures + 1);
  });

  it(`refuses an address after ${SIGN_IN_LIMITS.address.max} failures across accounts, for the rest of its window`, async () => {
    for (let i = 0; i < SIGN_IN_LIMITS.address.max; i++)
      expect(await attempt(newAccount(), '10.0.4.1', 0)).toEqual(allowed);
    const windowSeconds = SIGN_IN_LIMITS.address.windowMinutes * 60;
    expect(await attempt(newAccount(), '10.0.4.1', 0)).toEqual(refused(windowSeconds));
    expect(await attempt(newAccount(), '10.0.4.1', 60_000)).toEqual(refused(windowSeconds - 60));
    expect(await attempt(newAccount(), '10.0.4.2', 0)).toEqual(allowed);
    expect(await attempt(newAccount(), '10.0.4.1', windowSeconds * 1000)).toEqual(allowed);
  });

  it(`holds a guesser spread over many addresses to ${SIGN_IN_LIMITS.account.max} a minute on an account, not its owner's known address`, async () => {
    const email = newAccount();
    await signInSucceeded(db, email, '10.0.5.99', at(-86_400_000));
    for (let a = 0; a < SIGN_IN_LIMITS.account.max / 5; a++) await fail(email, `10.0.5.${a}`, 5, 10_000);
    // new addresses wait for the minute to end (60 s at most), whatever their password
    expect(await attempt(email, '10.0.5.50', 10_000)).toEqual(refused(60));
    expect(await attempt(email, '10.0.5.51', 69_999)).toEqual(refused(1));
    // the address the account signed in from yesterday is not held up
    expect(await attempt(email, '10.0.5.99', 10_000)).toEqual(allowed);
    expect(await attempt(email, '10.0.5.50', 70_000)).toEqual(allowed);
  });

  it('counts the account limit after the pair: a refused hammering from one address does not hold others up', async () => {
    const email = newAccount();
    await fail(email, '10.0.6.1', 5);
    for (let i = 0; i < 3 * SIGN_IN_LIMITS.account.max; i++)
      expect((await attempt(email, '10.0.6.1', 500)).allowed).toBe(false);
    expect(await attempt(email, '10.0.6.2', 500)).toEqual(allowed);
  });

  it('clears the failures of the address that set a new password, not of others', async () => {
    const email = newAccount();
    await fail(email, '10.0.7.1', 5);
    await fail(email, '10.0.7.2', 5);
    await clearSignInFailures(db, email, '10.0.7.1', at(0));
    expect(await attempt(email, '10.0.7.1', 0)).toEqual(allowed);
    expect(await attempt(email, '10.0.7.2', 0)).toEqual(refused(1));
  });
});
