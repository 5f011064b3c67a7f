/**
 * Where a process's time went, from a V8 CPU profile (`node --cpu-prof`), counting only the samples
 * taken within the given windows (run.ts passes the times the task list was measured: the profile's
 * timestamps and `process.hrtime` read the same monotonic clock on Linux).
 *
 * Prints three lists:
 *  - by area, self time: each sample goes to the innermost frame of the stack that has a source (the
 *    api's own files by folder and file, a package by name, node's internals), so a native call
 *    (a SQLite step, a socket write, JSON.stringify) counts for the code that made it;
 *  - by area, inclusive: the share of samples with a frame of the area anywhere on the stack;
 *  - the functions with the most self time.
 * `npx tsx bench/throughput/profile.ts FILE.cpuprofile` summarizes a profile again: within the windows
 * run.ts wrote beside it (FILE.cpuprofile.windows.json), else the whole profile.
 */
import fs from 'fs';

export interface Window {
  fromUs: number;
  toUs: number;
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The area a frame's source belongs to; null for frames without a source (native, builtins). */
function areaOf(url: string): string | null {
  if (!url) return null;
  const path = url.replace(/^file:\/\//, '');
  const own = /\/(api|shared)\/src\/(.*?)(?:\.ts)?$/.exec(path);
  if (own) return `${own[1]}/${own[2]}`;
  const packages = path.split('/node_modules/');
  if (packages.length > 1) {
    const rest = packages[packages.length - 1].split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (path.startsWith('node:')) return `node:${path.slice(5).split('/').slice(0, 2).join('/')}`;
  return path;
}

const pct = (n: number, total: number) => `${((100 * n) / total).toFixed(1).padStart(5)}%`;

function top(map: Map<string, number>, total: number, n: number): string {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, value]) => `  ${pct(value, total)}  ${key}`)
    .join('\n');
}

export function summarizeProfile(file: string, windows: Window[] = []): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map<number, Node>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) byId.set(node.id, node);
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const selfArea = new Map<string, number>();
  const inclusiveArea = new Map<string, number>();
  const selfFunction = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  let total = 0;
  let idle = 0;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    // a sample stands for the time until the next one
    const us = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    if (windows.length > 0 && !windows.some((w) => t >= w.fromUs && t < w.toUs)) continue;
    const leaf = byId.get(profile.samples[i])!;
    total += us;
    const name = leaf.callFrame.functionName;
    if (name === '(idle)') {
      idle += us;
      continue;
    }
    const leafArea = areaOf(leaf.callFrame.url);
    add(
      selfFunction,
      `${name || '(anonymous)'} ${leafArea ? `${leafArea}:${leaf.callFrame.lineNumber + 1}` : '(native)'}`,
      us,
    );
    if (name === '(garbage collector)' || name === '(program)') {
      add(selfArea, name, us);
      add(inclusiveArea, name, us);
      continue;
    }
    let self: string | null = null;
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const area = areaOf(byId.get(id)!.callFrame.url);
      if (!area) continue;
      self ??= area;
      seen.add(area);
    }
    add(selfArea, self ?? '(native, no caller with a source)', us);
    for (const area of seen) add(inclusiveArea, area, us);
  }
  const busy = total - idle;
  if (busy <= 0) return '  (no samples in the windows)';
  return [
    `  ${(total / 1e6).toFixed(1)} s sampled, ${pct(busy, total).trim()} busy; shares below are of the busy time (${(busy / 1e6).toFixed(1)} s)`,
    '\n  by area, self time (native calls count for their caller):',
    top(selfArea, busy, 25),
    '\n  by area, inclusive (a frame of the area anywhere on the stack):',
    top(inclusiveArea, busy, 30),
    '\n  functions, self time:',
    top(selfFunction, busy, 30),
  ].join('\n');
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error('Usage: tsx bench/throughput/profile.ts FILE.cpuprofile');
    process.exit(2);
  }
  const windows = fs.existsSync(`${file}.windows.json`)
    ? (JSON.parse(fs.readFileSync(`${file}.windows.json`, 'utf8')) as Window[])
    : [];
  console.log(summarizeProfile(file, windows));
}
