// Type-checks every package with its own tsconfig (strict, one shared base), in as few TypeScript
// programs as that allows.
//
// Each package's tsconfig is read as tsc reads it. Packages whose compiler options come out the same
// (shared, the shell and the four remotes; the api and lint; e2e and bench) are checked as one
// program: the same files under the same options, so the same errors, but each file is parsed and
// checked once. Checked package by package, `shared` (which every web package and the api import
// from source) was checked again in each of ten programs. The groups run side by side, one process
// per core. `node scripts/typecheck.js shell api` checks only the groups of those packages.
const { fork } = require('child_process');
const os = require('os');
const path = require('path');
const ts = require('typescript');

const root = path.join(__dirname, '..');
const PACKAGES = [
  'shared',
  'shell',
  'mfe-projects',
  'mfe-requests',
  'mfe-settings',
  'mfe-reports',
  'api',
  'e2e',
  'bench',
  'lint',
];

function readPackage(name) {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) };
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, name, 'tsconfig.json'), { noEmit: true }, host);
  if (parsed.errors.length) fail(parsed.errors);
  // where the options came from is not an option
  const { configFilePath: _configFilePath, ...options } = parsed.options;
  return { name, options, fileNames: parsed.fileNames, key: JSON.stringify(sortKeys(options)) };
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys(value[k])]),
    );
  return value;
}

function groupsOf(names) {
  const groups = new Map();
  for (const pkg of PACKAGES.map(readPackage)) {
    if (!groups.has(pkg.key)) groups.set(pkg.key, []);
    groups.get(pkg.key).push(pkg);
  }
  return [...groups.values()].filter((group) => !names.length || group.some((pkg) => names.includes(pkg.name)));
}

const formatHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => ts.sys.newLine,
};
// in colour on a terminal, as tsc does
const format = (diagnostics) =>
  process.stderr.isTTY
    ? ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost)
    : ts.formatDiagnostics(diagnostics, formatHost);

function fail(diagnostics) {
  process.stderr.write(format(diagnostics));
  process.exit(1);
}

/** Checks one group (in a child process): one program over its packages' files. */
function check(group) {
  const started = Date.now();
  const options = group[0].options;
  const program = ts.createProgram({ rootNames: group.flatMap((pkg) => pkg.fileNames), options });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const names = group.map((pkg) => pkg.name).join(', ');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (diagnostics.length) {
    process.stderr.write(format(diagnostics));
    console.error(`typecheck ${names}: ${diagnostics.length} error(s) (${seconds} s)`);
    return false;
  }
  console.log(`typecheck ${names}: ok (${program.getSourceFiles().length} files, ${seconds} s)`);
  return true;
}

if (process.env.TYPECHECK_GROUP) {
  const group = groupsOf([]).find((g) => g.map((pkg) => pkg.name).join(',') === process.env.TYPECHECK_GROUP);
  process.exit(check(group) ? 0 : 1);
} else {
  const unknown = process.argv.slice(2).filter((name) => !PACKAGES.includes(name));
  if (unknown.length) {
    console.error(`typecheck: no package ${unknown.join(', ')} (packages: ${PACKAGES.join(', ')})`);
    process.exit(2);
  }
  // the largest groups first, so the last one to start is a small one
  const pending = groupsOf(process.argv.slice(2)).sort(
    (a, b) => b.flatMap((p) => p.fileNames).length - a.flatMap((p) => p.fileNames).length,
  );
  const slots = Math.max(1, Math.min(pending.length, os.availableParallelism()));
  let failed = 0;
  const next = () => {
    const group = pending.shift();
    if (!group) return Promise.resolve();
    const child = fork(__filename, [], {
      env: { ...process.env, TYPECHECK_GROUP: group.map((pkg) => pkg.name).join(',') },
      stdio: 'inherit',
    });
    return new Promise((resolve) => child.on('exit', (code) => resolve(code))).then((code) => {
      if (code !== 0) failed++;
      return next();
    });
  };
  Promise.all(Array.from({ length: slots }, next)).then(() => process.exit(failed ? 1 : 0));
}
