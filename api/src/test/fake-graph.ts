/**
 * Test helper: a local HTTP server standing in for Microsoft's sign-in and Graph (lib/graph.ts), on
 * 127.0.0.1 and a free port. It issues tokens for the right secret only, knows every organizer except
 * those marked unknown, keeps the events made, and can be told to fail a step with a status.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_GRAPH_SECRET = 'fake-graph-client-secret-value';
export const FAKE_GRAPH_TENANT = 'contoso.onmicrosoft.com';

export interface FakeGraphRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
}

export type FakeGraphStep = 'token' | 'user' | 'create' | 'update' | 'cancel' | 'subscription' | 'delete';

export interface FakeGraph {
  /** GRAPH_* settings pointing at this server (with a notification URL when `subscriptions`). */
  env(options?: { subscriptions?: boolean }): Record<string, string>;
  /** Every API request (not token requests), oldest first. */
  requests: FakeGraphRequest[];
  tokensIssued: number;
  /** Steps answered with this status instead of success. */
  failures: Partial<Record<FakeGraphStep, number>>;
  /** Organizer e-mails Graph answers 404 for. */
  unknownUsers: Set<string>;
  /** Events that exist now, by id. */
  events: Map<string, Record<string, unknown>>;
  reset(): void;
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFakeGraph(): Promise<FakeGraph> {
  let counter = 0;
  const tokens = new Set<string>();
  const fake: FakeGraph = {
    env: () => ({}),
    requests: [],
    tokensIssued: 0,
    failures: {},
    unknownUsers: new Set(),
    events: new Map(),
    /** Forgets the requests, failures and events, and revokes the tokens issued so far. */
    reset() {
      tokens.clear();
      fake.requests.length = 0;
      fake.failures = {};
      fake.unknownUsers.clear();
      fake.events.clear();
    },
    close: async () => {},
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      const failWith = (step: FakeGraphStep) => {
        const status = fake.failures[step];
        if (status === undefined) return false;
        send(status, { error: { code: `Fake${step}Failure`, message: 'failed as told' } });
        return true;
      };

      if (req.method === 'POST' && url.pathname === `/login/${FAKE_GRAPH_TENANT}/oauth2/v2.0/token`) {
        const form = new URLSearchParams(raw);
        if (failWith('token')) return;
        if (form.get('client_secret') !== FAKE_GRAPH_SECRET || form.get('grant_type') !== 'client_credentials')
          return send(401, { error: 'invalid_client' });
        const token = `token-${++counter}`;
        tokens.add(token);
        fake.tokensIssued += 1;
        return send(200, { token_type: 'Bearer', access_token: token, expires_in: 3599 });
      }

      if (!url.pathname.startsWith('/graph/v1.0/')) return send(404, { error: { code: 'NotFound' } });
      if (!tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, '')))
        return send(401, { error: { code: 'InvalidAuthenticationToken' } });
      const parts = url.pathname.slice('/graph/v1.0'.length).split('/').slice(1).map(decodeURIComponent);
      const path = `/${parts.join('/')}`;
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      fake.requests.push({ method: req.method ?? '', path, body });

      if (req.method === 'GET' && parts[0] === 'users' && parts.length === 2) {
        if (failWith('user')) return;
        if (fake.unknownUsers.has(parts[1])) return send(404, { error: { code: 'Request_ResourceNotFound' } });
        return send(200, { id: `graph-user-${parts[1]}` });
      }
      if (req.method === 'POST' && parts[0] === 'users' && parts[2] === 'events' && parts.length === 3) {
        if (failWith('create')) return;
        const id = `event-${++counter}`;
        const event = { ...body, id, onlineMeeting: { joinUrl: `https://teams.example.test/meet/${id}` } };
        fake.events.set(id, event);
        return send(201, event);
      }
      if (parts[0] === 'users' && parts[2] === 'events' && parts.length >= 4) {
        const event = fake.events.get(parts[3]);
        if (req.method === 'PATCH' && parts.length === 4) {
          if (failWith('update')) return;
          if (!event) return send(404, { error: { code: 'ErrorItemNotFound' } });
          Object.assign(event, body);
          return send(200, event);
        }
        if (req.method === 'POST' && parts[4] === 'cancel') {
          if (failWith('cancel')) return;
          if (!event) return send(404, { error: { code: 'ErrorItemNotFound' } });
          fake.events.delete(parts[3]);
          return send(202);
        }
        if (req.method === 'DELETE' && parts.length === 4) {
          if (failWith('delete')) return;
          fake.events.delete(parts[3]);
          return send(204);
        }
      }
      if (req.method === 'POST' && path === '/subscriptions') {
        if (failWith('subscription')) return;
        // As Graph: Outlook events are subscribed to as a collection (users/{id}/events), never one event.
        if (typeof body?.resource !== 'string' || !/^users\/[^/]+\/events$/.test(body.resource)) {
          return send(400, {
            error: { code: 'ExtensionError', message: 'Subscriptions to a single event are not supported' },
          });
        }
        return send(201, { ...body, id: `subscription-${++counter}` });
      }
      send(404, { error: { code: 'NotFound' } });
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  fake.env = ({ subscriptions = false } = {}) => ({
    GRAPH_TENANT_ID: FAKE_GRAPH_TENANT,
    GRAPH_CLIENT_ID: 'portal-app',
    GRAPH_CLIENT_SECRET: FAKE_GRAPH_SECRET,
    GRAPH_AUTHORITY_URL: `${origin}/login`,
    GRAPH_API_URL: `${origin}/graph/v1.0`,
    ...(subscriptions ? { GRAPH_NOTIFICATION_URL: 'https://portal.example.test/graph/notifications' } : {}),
  });
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
