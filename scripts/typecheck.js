// Type-checks every package with its own tsconfig (strict, one shared base).
const { execFileSync } = require('child_process');
const path = require('path');

const packages = ['shared', 'shell', 'mfe-projects', 'mfe-requests', 'mfe-settings', 'mfe-reports', 'api', 'e2e', 'bench', 'lint'];
const tsc = path.join(__dirname, '..', 'node_modules', 'typescript', 'bin', 'tsc');
let failed = 0;
for (const p of packages) {
  try {
    execFileSync(process.execPath, [tsc, '-p', path.join(p, 'tsconfig.json'), '--noEmit'], { stdio: 'inherit', cwd: path.join(__dirname, '..') });
    console.log(`typecheck ${p}: ok`);
  } catch {
    console.error(`typecheck ${p}: failed`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
