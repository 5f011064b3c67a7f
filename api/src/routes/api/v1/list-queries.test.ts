/**
 * Query budgets of the list pages: how many SQL statements one page of each list costs, session and
 * permission reads included. Deterministic (a count, not a time), so CI gates on it on both databases.
 *
 * Two things are checked for each list: the count stays within the list's budget, and a page of 50
 * rows costs exactly what a page of 2 costs, so no list reads its rows one query at a time (N+1).
 * A change that needs more statements raises the budget here, in review, with the reason. The budgets
 * are the counts measured on SQLite, where some lists take one statement more than on PostgreSQL;
 * `PRINT_QUERY_COUNTS=1` prints each list's figures.
 */
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../../../test/app';
import { companyId } from '../../../test/identity';

let t: TestApp;
let cookie: string;
let acme: string;
let project: string;

beforeAll(async () => {
  t = await createTestApp();
  cookie = await t.cookieFor('admin@demo.test');
  acme = await companyId(t, 'Acme Corp');
  // the seeded project with the most tasks, so its lists hold more than one small page
  const busiest = await t.database.db
    .selectFrom('tasks')
    .select(['project_id', sql<number>`count(*)`.as('n')])
    .groupBy('project_id')
    .orderBy('n', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  project = busiest.project_id;
});
afterAll(() => t.close());

/** The statements one GET costs, and how many rows it answered. */
async function measure(url: string): Promise<{ queries: number; rows: number }> {
  // one warm-up call: caches the app fills once per process (portal config, flags) are not the page's cost
  await t.api({ method: 'GET', url, cookie });
  const before = t.queryCount();
  const res = await t.api({ method: 'GET', url, cookie });
  const queries = t.queryCount() - before;
  expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
  const body = res.json() as { results?: unknown[] } | unknown[];
  const rows = Array.isArray(body) ? body.length : (body.results?.length ?? 0);
  return { queries, rows };
}

/** A numbered page (`page`, `pageSize`); the company's tasks page by cursor (`limit`). */
const paged = (url: () => string) => (size: number) => `${url()}?page=1&pageSize=${size}`;
const limited = (url: () => string) => (size: number) => `${url()}?limit=${size}`;

/** Each list, the url of a page of a given size, and the most statements one page of it may cost. */
const LISTS: { name: string; url: (size: number) => string; budget: number }[] = [
  { name: 'companies', url: paged(() => '/api/v1/companies'), budget: 4 },
  { name: 'staff users', url: paged(() => '/api/v1/users/staff'), budget: 4 },
  { name: 'company users', url: paged(() => `/api/v1/companies/${acme}/users`), budget: 5 },
  { name: 'company projects', url: paged(() => `/api/v1/companies/${acme}/projects`), budget: 7 },
  { name: 'company tasks', url: limited(() => `/api/v1/companies/${acme}/tasks`), budget: 3 },
  { name: 'company requests', url: paged(() => `/api/v1/companies/${acme}/requests`), budget: 10 },
  { name: 'project tasks', url: paged(() => `/api/v1/projects/${project}/tasks`), budget: 3 },
  { name: 'project controls', url: paged(() => `/api/v1/projects/${project}/controls`), budget: 6 },
  { name: 'audit log', url: paged(() => '/api/v1/audit-log'), budget: 3 },
];

describe('query budgets of the list pages', () => {
  it.each(LISTS)('one page of $name stays within its budget, whatever its size', async ({ name, url, budget }) => {
    const small = await measure(url(2));
    const large = await measure(url(50));
    if (process.env.PRINT_QUERY_COUNTS) console.log(name, small, large);
    // the large page really holds more rows, or the comparison proves nothing
    expect(large.rows).toBeGreaterThan(small.rows);
    expect(large.queries).toBe(small.queries);
    expect(large.queries).toBeLessThanOrEqual(budget);
  });
});
