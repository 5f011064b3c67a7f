/** Timing HTTP requests against the running api, and the figures the benchmark prints. */
import http from 'node:http';

export interface Case {
  name: string;
  url: string;
}

export interface Timing {
  name: string;
  p50: number;
  p99: number;
  samples: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface Client {
  /** GET `url`, the whole body read; throws unless 200. */
  get(url: string): Promise<{ ms: number; body: string }>;
}

/**
 * node:http with a keep-alive agent: one connection per request in flight, kept between requests.
 * Not fetch: on a machine of two cores the client shares the processors with the api (and
 * PostgreSQL), and undici's fetch spends several times the processor time per request that node:http
 * does, time the api then does not get.
 */
export function httpClient(baseUrl: string, cookie: string): Client {
  const agent = new http.Agent({ keepAlive: true });
  const { hostname, port } = new URL(baseUrl);
  const headers = { cookie, 'x-portal-client': 'web', accept: 'application/json' };
  return {
    get(url) {
      return new Promise((resolve, reject) => {
        const started = performance.now();
        const req = http.get({ agent, hostname, port, path: url, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const ms = performance.now() - started;
            const body = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200)
              reject(new Error(`GET ${url} answered ${res.statusCode}: ${body.slice(0, 300)}`));
            else resolve({ ms, body });
          });
        });
        req.on('error', reject);
      });
    },
  };
}

/**
 * `warmup` rounds, then `rounds` measured ones; each round requests every case once, one request at
 * a time, in an order that alternates, so a slow spell of the machine hits all cases alike.
 */
export async function measure(client: Client, cases: Case[], rounds: number, warmup: number): Promise<Timing[]> {
  const samples = cases.map(() => [] as number[]);
  for (let round = 0; round < warmup + rounds; round++) {
    const order = round % 2 === 0 ? cases.map((_, i) => i) : cases.map((_, i) => cases.length - 1 - i);
    for (const i of order) {
      const { ms } = await client.get(cases[i].url);
      if (round >= warmup) samples[i].push(ms);
    }
  }
  return cases.map((c, i) => {
    const sorted = [...samples[i]].sort((a, b) => a - b);
    return { name: c.name, p50: percentile(sorted, 50), p99: percentile(sorted, 99), samples: sorted.length };
  });
}

/**
 * `connections` clients at once, each sending `perConnection` requests back to back (every case in
 * turn, each client starting at another case): latency per case under concurrent load.
 */
export async function measureConcurrent(
  client: Client,
  cases: Case[],
  connections: number,
  perConnection: number,
): Promise<Timing[]> {
  const samples = cases.map(() => [] as number[]);
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      for (let n = 0; n < perConnection; n++) {
        const i = (worker + n) % cases.length;
        samples[i].push((await client.get(cases[i].url)).ms);
      }
    }),
  );
  return cases.map((c, i) => {
    const sorted = [...samples[i]].sort((a, b) => a - b);
    return { name: c.name, p50: percentile(sorted, 50), p99: percentile(sorted, 99), samples: sorted.length };
  });
}

export function table(header: string[], rows: string[][], alignLeft = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < alignLeft ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export const ms = (n: number) => n.toFixed(2);
export const count = (n: number) => n.toLocaleString('en-US');
