/**
 * bench/build: how long each web package's production build takes (webpack --mode production), one
 * after another on this machine. Budget: each remote at most 20 s (the shell is printed too).
 *
 *   tsx build/run.ts
 * Exit code 1 when a remote's build is over budget or fails.
 */
import { execFileSync } from 'child_process';
import path from 'path';

const BUDGET_S = 20;
const PACKAGES = ['shell', 'mfe-projects', 'mfe-requests', 'mfe-settings', 'mfe-reports'];
const root = path.join(__dirname, '..', '..');

let failed = false;
const rows: string[] = [];
for (const pkg of PACKAGES) {
  const started = process.hrtime.bigint();
  try {
    execFileSync('npm', ['run', 'build', '--silent', '-w', pkg], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    console.error(`${pkg}: the build failed\n${String((error as { stderr?: Buffer }).stderr ?? error)}`);
    failed = true;
    continue;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const remote = pkg !== 'shell';
  const over = remote && seconds > BUDGET_S;
  if (over) failed = true;
  rows.push(
    `${pkg.padEnd(14)} ${seconds.toFixed(1).padStart(6)} s   ${remote ? `ratio ${(seconds / BUDGET_S).toFixed(2)}${over ? '  OVER' : ''}` : '(host, no budget)'}`,
  );
}
console.log(`\nproduction builds, one at a time (budget per remote: ${BUDGET_S} s)\n`);
for (const row of rows) console.log(row);
process.exitCode = failed ? 1 : 0;
