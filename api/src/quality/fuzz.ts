/**
 * Schema fuzzing of every api operation (`npm run test:fuzz`; `.ci/run` runs a bounded run).
 *
 * Walks the routes the app registered (the same table the generated authorization test walks, so a
 * route added later is fuzzed without anyone listing it) and sends each one generated requests with
 * fast-check, as a staff admin, as a client user of Acme and anonymously: valid, boundary and invalid
 * path ids, query parameters, bodies and headers
 * (malformed JSON, other content types, a missing CSRF header). Field and query names come from each
 * operation (shared/src/core/<area>/api.ts), then from every shared contract.
 * The run fails on:
 *  - any 5xx;
 *  - any 2xx to input that cannot be valid: a malformed id in the path, a malformed JSON body, a
 *    state-changing call without the CSRF header;
 *  - any 2xx to a caller without the right: anonymous on a non-public route, the client on a staff
 *    route, the client on another company's id;
 *  - any 2xx answer to the Acme client that holds an id of Globex's (another tenant's data) in an id
 *    field;
 *  - any answer that does not match the operation's OpenAPI description (lib/openapi.ts): a status
 *    it does not list, a content type other than the ones listed for that status, a JSON answer that
 *    does not parse, an error answer that is not the Error schema (a catalogue code, a message, the
 *    request id, well-formed details), a success body its operation's result schema does not allow
 *    (`result` in shared/src/core/<area>/api.ts: every field, its type, no undocumented field) or a
 *    204 with a body.
 * It prints, per operation, how many requests were sent and how they were answered.
 *
 *   tsx api/src/quality/fuzz.ts [--runs N] [--seed S] [--only <substring of "METHOD /path">]
 * --runs: requests per operation and caller (default 100). Exit code 1 on any failure.
 *
 * Longer than 400 lines: one command-line tool, read top to bottom (the generators, the run, the
 * report); split, its parts would be used nowhere else.
 */
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { addCompanyDomain } from '../db/identity-providers';
import { createTestApp, type TestApp } from '../test/app';
import type { RoutePolicy } from '../plugins/app/policies';
import { ERROR_MESSAGES, GENERIC_ERROR_CODES, RESET_PASSWORD_FAILED } from '@portal/shared/core/errors';
import { resultProblem } from '@portal/shared/core/answers';
import { jsonSchemaOf, openApiDocument, openApiPath, type OpenApiDocument } from '../lib/openapi';
import { validValue } from './valid-bodies';
import { fieldNames, queryNames, schemaKeys } from './fields';

type Caller = 'admin' | 'client' | 'anonymous';
const CALLERS: Record<Exclude<Caller, 'anonymous'>, string> = { admin: 'admin@demo.test', client: 'member@acme.test' };

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const RUNS = Number(arg('runs') ?? 100);
const SEED = Number(arg('seed') ?? Date.now() % 2 ** 31);
const ONLY = arg('only');

/** Routes that hold the connection open (server-sent events): a request never ends by itself. */
const STREAMS = /\/stream$/;

/** Path values no id can be: each must be refused (404 or 400), never answered 2xx. */
const MALFORMED_IDS = [
  '',
  ' ',
  '%00',
  'a%00b',
  '..%2F..%2Fetc',
  "'%20OR%201=1--",
  'x'.repeat(300),
  '-1',
  '1e309',
  '%F0%9F%98%80',
  '%3Cscript%3E',
];

const BOUNDARY_STRINGS = [
  '',
  ' ',
  'a',
  'x'.repeat(256),
  'y'.repeat(5_001),
  'z'.repeat(70_000),
  '\u0000',
  'a\u0000b',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  "'; drop table users; --",
  '=HYPERLINK("http://evil")',
  '😀👍🏽',
  'Ünïcødé ∑',
  '\u202e',
  '../../etc/passwd',
  '2026-02-30',
  '2026-11-23',
  '1999-12-31',
  '9999-12-31',
  '2026-11-23T10:00:00Z',
  'not-a-date',
  'true',
  'null',
  '0',
  '-1',
  '1e309',
  'NaN',
  'a@b.c',
  'admin@demo.test',
  'not an email',
  '00000000-0000-4000-8000-000000000000',
];

const BOUNDARY_NUMBERS = [
  0,
  -1,
  1,
  2,
  24,
  25,
  100,
  101,
  1000,
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  0.5,
  -0.0,
];

interface Ids {
  acmeCompany: string;
  globexCompany: string;
  /** Real ids of many kinds, of both companies: path values that exist. */
  real: string[];
  /** Real ids by what they name (company, project, task...): the values a path parameter should get. */
  byKind: Record<string, string[]>;
  /** Every id of Globex's own data (company, users, projects, requests, tasks, files). */
  globexOwned: Set<string>;
}

async function collectIds(t: TestApp): Promise<Ids> {
  const db = t.database.db;
  const company = async (name: string) =>
    (await db.selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const acmeCompany = await company('Acme Corp');
  const globexCompany = await company('Globex Inc');
  const ids = async (rows: Promise<{ id: string }[]>) => (await rows).map((r) => r.id);
  const projectsOf = (c: string) => ids(db.selectFrom('projects').select('id').where('company_id', '=', c).execute());
  const acmeProjects = await projectsOf(acmeCompany);
  const globexProjects = await projectsOf(globexCompany);
  const tasksOf = (p: string[]) =>
    p.length
      ? ids(db.selectFrom('tasks').select('id').where('project_id', 'in', p).limit(20).execute())
      : Promise.resolve([]);
  const filesOf = (p: string[]) =>
    p.length
      ? ids(db.selectFrom('files').select('id').where('project_id', 'in', p).limit(20).execute())
      : Promise.resolve([]);
  const requestsOf = (c: string) =>
    ids(db.selectFrom('requests').select('id').where('company_id', '=', c).limit(20).execute());
  const usersOf = async (c: string) =>
    (await db.selectFrom('company_memberships').select('user_id').where('company_id', '=', c).execute()).map(
      (r) => r.user_id,
    );
  const globexUsers = await usersOf(globexCompany);
  const acmeUsers = new Set(await usersOf(acmeCompany));
  // The seed has no email domains: one claimed by each company, so `:domainId` gets real values too.
  const acmeDomain = (await addCompanyDomain(db, acmeCompany, 'fuzz-acme.test')).id;
  const globexDomain = (await addCompanyDomain(db, globexCompany, 'fuzz-globex.test')).id;
  const globexOwned = new Set([
    globexCompany,
    globexDomain,
    ...globexProjects,
    ...(await tasksOf(globexProjects)),
    ...(await filesOf(globexProjects)),
    ...(await requestsOf(globexCompany)),
    ...globexUsers.filter((u) => !acmeUsers.has(u)),
  ]);
  const some = async (
    table:
      | 'teams'
      | 'practices'
      | 'controls'
      | 'folders'
      | 'notifications'
      | 'interviews'
      | 'task_trackers'
      | 'points_of_focus'
      | 'transfers',
  ) => ids(db.selectFrom(table).select('id').limit(6).execute());
  const acmeTasks = await tasksOf(acmeProjects.slice(0, 2));
  const byKind: Record<string, string[]> = {
    company: [acmeCompany, globexCompany],
    project: [...acmeProjects.slice(0, 3), ...globexProjects.slice(0, 1)],
    request: [...(await requestsOf(acmeCompany)).slice(0, 5), ...(await requestsOf(globexCompany)).slice(0, 1)],
    user: [...[...acmeUsers].slice(0, 5), ...globexUsers.slice(0, 1)],
    task: [...acmeTasks.slice(0, 6), ...(await tasksOf(globexProjects)).slice(0, 1)],
    file: [...(await filesOf(acmeProjects)).slice(0, 5), ...(await filesOf(globexProjects)).slice(0, 1)],
    team: await some('teams'),
    practice: await some('practices'),
    control: await some('controls'),
    folder: await some('folders'),
    notification: await some('notifications'),
    interview: await some('interviews'),
    tracker: await some('task_trackers'),
    point: await some('points_of_focus'),
    transfer: await some('transfers'),
    key: (await db.selectFrom('feature_flags').select('key').limit(3).execute()).map((r) => r.key),
    domain: [acmeDomain, globexDomain],
  };
  byKind.object = byKind.project;
  for (const [kind, list] of Object.entries(byKind)) if (!list.length) delete byKind[kind];
  const real = [...new Set(Object.values(byKind).flat())];
  return { acmeCompany, globexCompany, real, byKind, globexOwned };
}

interface Generated {
  params: Record<string, string>;
  /** A path parameter named like an id was given a value no id can be. */
  malformedId: boolean;
  query: Record<string, unknown>;
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; contentType: string; text: string };
  dropCsrf: boolean;
}

/** What a path parameter names: `:taskId` a task; `:id` what the segment before it lists. */
function kindOf(url: string, name: string): string {
  if (name !== 'id') return name.replace(/Id$/, '');
  const before = /\/([a-z-]+)\/:id\b/.exec(url)?.[1] ?? '';
  const kinds: Record<string, string> = {
    companies: 'company',
    projects: 'project',
    requests: 'request',
    users: 'user',
    practices: 'practice',
    notifications: 'notification',
    transfers: 'transfer',
    files: 'file',
    teams: 'team',
  };
  return kinds[before] ?? 'company';
}

const isIdParam = (name: string) => name === 'id' || /Id$/.test(name);

/** What a body field's id names when its name does not say it (`assigneeIds` are users, `parentId` a task). */
const FIELD_KINDS: Record<string, string> = {
  assignee: 'user',
  member: 'user',
  requester: 'user',
  recipient: 'user',
  owner: 'user',
  parent: 'task',
};

function requestArbitrary(route: RoutePolicy, ids: Ids): fc.Arbitrary<Generated> {
  const paramNames = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  const scalar = fc.oneof(
    fc.constantFrom(...BOUNDARY_STRINGS),
    fc.constantFrom(...BOUNDARY_NUMBERS),
    fc.constantFrom(...ids.real),
    fc.boolean(),
    fc.constant(null),
    fc.string({ maxLength: 40 }),
    fc.integer(),
    fc.double({ noNaN: true }),
  );
  const value: fc.Arbitrary<unknown> = fc.oneof(
    { weight: 6, arbitrary: scalar },
    { weight: 2, arbitrary: fc.array(scalar, { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...fieldNames), scalar, { maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
  const param = (name: string) =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .constantFrom(...(ids.byKind[kindOf(route.url, name)] ?? ids.real))
          .map((v) => ({ v, malformed: false })),
      },
      { weight: 1, arbitrary: fc.constantFrom(...ids.real).map((v) => ({ v, malformed: false })) },
      { weight: 1, arbitrary: fc.uuid().map((v) => ({ v, malformed: false })) },
      { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_IDS).map((v) => ({ v, malformed: isIdParam(name) })) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom('status', 'requests', 'controls', 'workload', 'logo', 'csv', 'xlsx', 'pdf')
          .map((v) => ({ v, malformed: false })),
      },
    );
  const params = fc.tuple(...paramNames.map(param));
  // The names this operation's OpenAPI description gives (its query, body and form schemas) come
  // first; any other name the contracts use, and hostile ones, now and then.
  const op = route.operation;
  const ownQuery = schemaKeys(op?.query);
  const ownFields = [...new Set([...schemaKeys(op?.body), ...schemaKeys(op?.form?.fields)])];
  const queryKey = ownQuery.length
    ? fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...ownQuery) },
        { weight: 1, arbitrary: fc.constantFrom(...queryNames) },
      )
    : fc.constantFrom(...queryNames);
  const fieldKey = ownFields.length
    ? fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...ownFields) },
        { weight: 1, arbitrary: fc.constantFrom(...fieldNames) },
      )
    : fc.constantFrom(...fieldNames);
  const query = fc.oneof(
    { weight: 1, arbitrary: fc.constant({}) },
    {
      weight: 4,
      arbitrary: fc.dictionary(
        fc.oneof(
          { weight: 6, arbitrary: queryKey },
          { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'x[]', 'page[]') },
        ),
        fc.oneof(
          scalar.map((v) => String(v)),
          fc.array(
            scalar.map((v) => String(v)),
            { maxLength: 3 },
          ),
        ),
        { maxKeys: 4 },
      ),
    },
  );
  // Bodies that follow the operation's schema (naming real ids), so writes also answer 2xx and
  // their success bodies and tenant checks are judged; the rest are random or hostile.
  const idsForField = (key: string) => {
    const name = key.replace(/Ids?$/, '');
    const kind = FIELD_KINDS[name] ?? name;
    return ids.byKind[kind] ?? [];
  };
  const valid = op?.body ? [{ weight: 4, arbitrary: validValue(jsonSchemaOf(op.body), idsForField) }] : [];
  const json = fc.oneof(
    ...valid,
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 6, arbitrary: fc.dictionary(fieldKey, value, { maxKeys: 8 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>([], null, 'text', 7, [{}], { __proto__: { admin: true } }) },
  );
  const raw = fc.constantFrom(
    { contentType: 'application/json', text: '{"title": ' },
    { contentType: 'application/json', text: '[1, 2' },
    { contentType: 'application/json', text: '{"a":1}}' },
    { contentType: 'text/plain', text: 'hello' },
    { contentType: 'application/x-www-form-urlencoded', text: 'title=x&name=y' },
    {
      contentType: 'multipart/form-data; boundary=zzz',
      text: '--zzz\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
    },
    { contentType: 'multipart/form-data', text: 'no boundary' },
    { contentType: 'application/xml', text: '<a/>' },
  );
  const writes = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);
  const body: fc.Arbitrary<Generated['body']> = writes
    ? fc.oneof(
        { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
        { weight: 7, arbitrary: json.map((value) => ({ kind: 'json' as const, value })) },
        { weight: 2, arbitrary: raw.map((r) => ({ kind: 'raw' as const, ...r })) },
      )
    : fc.constant({ kind: 'none' as const });
  return fc
    .record({
      params,
      query,
      body,
      dropCsrf: writes ? fc.integer({ min: 0, max: 9 }).map((n) => n === 0) : fc.constant(false),
    })
    .map((g) => {
      const values = Object.fromEntries(paramNames.map((name, i) => [name, g.params[i].v]));
      return {
        params: values,
        malformedId: g.params.some((p) => p.malformed),
        query: g.query,
        body: g.body,
        dropCsrf: g.dropCsrf,
      };
    });
}

function urlOf(route: RoutePolicy, g: Generated): string {
  const path = route.url
    .replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURI(g.params[name]).replace(/%25([0-9A-F]{2})/gi, '%$1'))
    .replace(/\*$/, 'x');
  const search = new URLSearchParams();
  for (const [key, v] of Object.entries(g.query)) for (const item of [v].flat()) search.append(key, String(item));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

const isStaffPolicy = (p: RoutePolicy['policy']) =>
  p === 'staff' || p === 'staffAdmin' || (typeof p === 'object' && 'staff' in p);
const isCompanyPolicy = (p: RoutePolicy['policy']) => typeof p === 'object' && 'company' in p;

interface Tally {
  sent: number;
  byClass: Record<'2xx' | '3xx' | '4xx' | '5xx', number>;
  failures: string[];
}

/**
 * The ids in a JSON answer: values of `id`, `...Id` and `...Ids` keys at any depth. (Not any string:
 * the fuzzing itself writes ids into names and titles, which are not another tenant's data.)
 */
function idValues(res: LightMyRequestResponse): string[] {
  if (!String(res.headers['content-type'] ?? '').includes('json')) return [];
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return [];
  }
  const out: string[] = [];
  const walk = (value: unknown, key: string) => {
    if (typeof value === 'string') {
      if (key === 'id' || /Ids?$/.test(key)) out.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item, key);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(body, '');
  return out;
}

const ERROR_CODES = new Set<string>([...Object.keys(ERROR_MESSAGES), ...GENERIC_ERROR_CODES, RESET_PASSWORD_FAILED]);

/** Whether an answer is one the operation's OpenAPI description lists; the mismatch in words if not. */
function conformance(route: RoutePolicy, res: LightMyRequestResponse, doc: OpenApiDocument): string | null {
  const status = res.statusCode;
  const described = doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
  if (!described) return 'has no OpenAPI description';
  const answer = described.responses[String(status)];
  if (!answer)
    return `answered ${status}, which its OpenAPI description does not list (${Object.keys(described.responses).join(', ')})`;
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (!answer.content) {
    if (status === 204 && res.body.length) return 'answered 204 with a body';
    return null;
  }
  const types = Object.keys(answer.content);
  if (!types.includes(type)) return `answered ${status} as ${type || 'no content type'}, not ${types.join(' or ')}`;
  if (type !== 'application/json') return null;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `answered ${status} with JSON that does not parse`;
  }
  if (status < 400) {
    const result = route.operation?.result;
    const problem = result ? resultProblem(result, body) : null;
    return problem && `answered ${status} with a body its schema does not allow: ${problem}`;
  }
  const error = body as Record<string, unknown> | null;
  if (!error || typeof error !== 'object' || Array.isArray(error))
    return `answered ${status} with an error that is not an object`;
  if (typeof error.code !== 'string' || !ERROR_CODES.has(error.code))
    return `answered ${status} with an error code outside the catalogue (${String(error.code)})`;
  if (typeof error.message !== 'string' || !error.message)
    return `answered ${status} (${error.code}) without a message`;
  if (typeof error.requestId !== 'string' || !error.requestId)
    return `answered ${status} (${error.code}) without the request id`;
  if (error.details !== undefined) {
    const ok =
      Array.isArray(error.details) &&
      error.details.every(
        (d) =>
          d &&
          typeof d === 'object' &&
          typeof (d as { field?: unknown }).field === 'string' &&
          typeof (d as { message?: unknown }).message === 'string',
      );
    if (!ok) return `answered ${status} (${error.code}) with details that are not a list of { field, message }`;
  }
  return null;
}

function judge(
  route: RoutePolicy,
  caller: Caller,
  g: Generated,
  res: LightMyRequestResponse,
  ids: Ids,
  doc: OpenApiDocument,
): string | null {
  const status = res.statusCode;
  if (status >= 500) return `answered ${status}`;
  const mismatch = conformance(route, res, doc);
  if (mismatch) return mismatch;
  if (status < 200 || status >= 300) return null;
  if (g.malformedId) return `answered ${status} to a malformed id in the path`;
  if (g.body.kind === 'raw' && g.body.contentType === 'application/json') return `answered ${status} to malformed JSON`;
  // The identity provider posts its SAML response from its own origin: its signature protects it.
  if (g.dropCsrf && route.url !== '/auth/saml/acs')
    return `answered ${status} to a state-changing call without CSRF proof`;
  if (caller === 'anonymous' && route.policy !== 'public') return `answered ${status} to an anonymous caller`;
  if (caller === 'client') {
    if (isStaffPolicy(route.policy)) return `answered ${status} to a client on a staff route`;
    if (isCompanyPolicy(route.policy) && g.params.id === ids.globexCompany)
      return `answered ${status} to an Acme client for Globex's company id`;
    const leaked = idValues(res).find((id) => ids.globexOwned.has(id));
    if (leaked) return `answered ${status} to an Acme client with Globex data (${leaked})`;
  }
  return null;
}

async function main() {
  const t = await createTestApp({ env: { RATE_LIMIT_MAX: '1000000', UPLOAD_MAX_BYTES: String(1024 * 1024) } });
  try {
    const ids = await collectIds(t);
    // the document @fastify/swagger generates from the registered routes (lib/openapi.ts)
    const doc = openApiDocument(t.app);
    const cookies: Record<Caller, string | undefined> = {
      admin: await t.cookieFor(CALLERS.admin),
      client: await t.cookieFor(CALLERS.client),
      anonymous: undefined,
    };
    const routes = t.app.routePolicies
      .filter((r) => r.method !== 'HEAD' && !STREAMS.test(r.url))
      .filter((r) => !ONLY || `${r.method} ${r.url}`.includes(ONLY));
    const skipped = t.app.routePolicies.filter((r) => r.method !== 'HEAD' && STREAMS.test(r.url));
    console.log(`fuzzing ${routes.length} operations x 3 callers x ${RUNS} requests (seed ${SEED})`);
    const tallies = new Map<string, Tally>();
    const started = Date.now();
    // The sign-in and session routes would end the callers' own sessions: fuzzed last, so every
    // other operation runs as the caller it names.
    const sessionEnding = (r: RoutePolicy) => /\/(logout|sign-out|signout)\b|\/sessions/.test(r.url);
    const ordered = [...routes.filter((r) => !sessionEnding(r)), ...routes.filter(sessionEnding)];
    for (const [index, route] of ordered.entries()) {
      const key = `${route.method} ${route.url}`;
      const tally: Tally = { sent: 0, byClass: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 }, failures: [] };
      tallies.set(key, tally);
      const samples = fc.sample(requestArbitrary(route, ids), { numRuns: RUNS * 3, seed: SEED + index });
      for (const [n, g] of samples.entries()) {
        const caller: Caller = (['admin', 'client', 'anonymous'] as const)[n % 3];
        if (sessionEnding(route) && caller !== 'anonymous') cookies[caller] = await freshCookie(t, caller);
        const headers: Record<string, string> = {};
        // Without CSRF proof: the api's calls lose their X-Portal-Client header; a form post under
        // /auth (which cannot send one) comes from another origin instead.
        if (g.dropCsrf) {
          if (route.url.startsWith('/auth/')) headers.origin = 'https://attacker.example';
          else headers['x-portal-client'] = '';
        }
        const options: InjectOptions & { cookie?: string } = {
          method: route.method as InjectOptions['method'],
          url: urlOf(route, g),
          cookie: cookies[caller],
          headers,
        };
        if (g.body.kind === 'json') options.payload = JSON.stringify(g.body.value) ?? 'null';
        if (g.body.kind === 'json') headers['content-type'] = 'application/json';
        if (g.body.kind === 'raw') {
          options.payload = g.body.text;
          headers['content-type'] = g.body.contentType;
        }
        let res: LightMyRequestResponse;
        try {
          res = await t.api(options);
        } catch (error) {
          tally.failures.push(`${caller}: ${options.method} ${String(options.url)}: threw ${(error as Error).message}`);
          continue;
        }
        tally.sent += 1;
        tally.byClass[`${Math.min(5, Math.floor(res.statusCode / 100))}xx` as keyof Tally['byClass']] += 1;
        const failure = judge(route, caller, g, res, ids, doc);
        if (failure) {
          const body = typeof options.payload === 'string' ? options.payload.slice(0, 200) : '';
          tally.failures.push(
            `${caller}: ${options.method} ${String(options.url).slice(0, 200)} ${body} -> ${failure}: ${res.body.slice(0, 300)}`,
          );
        }
      }
    }
    const seconds = (Date.now() - started) / 1000;

    const width = Math.max(...[...tallies.keys()].map((k) => k.length));
    console.log(`\n${'operation'.padEnd(width)}   sent   2xx   3xx   4xx   5xx  failed`);
    let sent = 0;
    let failed = 0;
    for (const [key, tally] of tallies) {
      const c = tally.byClass;
      console.log(
        `${key.padEnd(width)} ${String(tally.sent).padStart(6)} ${String(c['2xx']).padStart(5)} ${String(c['3xx']).padStart(5)} ${String(c['4xx']).padStart(5)} ${String(c['5xx']).padStart(5)} ${String(tally.failures.length).padStart(7)}`,
      );
      sent += tally.sent;
      failed += tally.failures.length;
    }
    for (const r of skipped)
      console.log(`${`${r.method} ${r.url}`.padEnd(width)}  not fuzzed: a server-sent event stream stays open`);
    console.log(
      `\n${tallies.size} operations, ${sent} requests in ${seconds.toFixed(1)} s (${Math.round(sent / seconds)}/s), seed ${SEED}: ${failed} failed`,
    );
    if (failed) {
      console.log('\nfailures (first 5 per operation):');
      for (const [key, tally] of tallies) {
        for (const f of tally.failures.slice(0, 5)) console.log(`  [${key}] ${f}`);
      }
      process.exitCode = 1;
    }
  } finally {
    await t.close();
  }
}

/** A new session for a caller whose session a fuzzed sign-out may have ended. */
async function freshCookie(t: TestApp, caller: Exclude<Caller, 'anonymous'>): Promise<string> {
  const { createSession } = await import('../db/sessions');
  const { findUserCredentialsByEmail } = await import('../db/users');
  const found = await findUserCredentialsByEmail(t.database.db, CALLERS[caller]);
  const { token } = await createSession(t.database.db, { userId: found!.user.id, userAgent: 'fuzz', maxHours: 1 });
  return `pe_session_token=${token}`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
