/**
 * The many-connections measurement of bench/api, in a process of its own: `run.ts` holds the loaded
 * database, the in-process api of the sequential run and their heap, and a garbage collection there
 * stopped the clock of every request in flight (a p99 of 40 ms at 1,000,000 tasks where the same
 * requests from a fresh process measured under 20). Started by run.ts with the tsx loader; reads its
 * job as JSON from argv[2] and prints the timings as JSON on its last line.
 */
import { httpClient, measureConcurrent, type Case } from './measure';

interface Job {
  baseURL: string;
  cookie: string;
  cases: Case[];
  connections: number;
  warmupRounds: number;
  warmupPerConnection: number;
  perConnection: number;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2]) as Job;
  const client = httpClient(job.baseURL, job.cookie);
  // warm-up: the new process's first answers (statement preparation), then the same load as the
  // measurement until V8 has optimized the request path: a fresh api answers its first thousand
  // requests or so with code that is not optimized yet, and the budget is about a running api
  for (let round = 0; round < job.warmupRounds; round++) for (const c of job.cases) await client.get(c.url);
  await measureConcurrent(client, job.cases, job.connections, job.warmupPerConnection);
  const timings = await measureConcurrent(client, job.cases, job.connections, job.perConnection);
  console.log(JSON.stringify(timings));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
