// The federation's shared singletons, written out once (docs/architecture.md, "One of each library").
// Every container (the shell and each remote) uses this list, so versions are checked everywhere.
//
// Most libraries are single through @portal/shared rather than shared whole, because a package
// shared whole ships all of it on the first page (a shared module cannot be tree-shaken):
//  - antd and its icons: only through the UI kits `@portal/shared/ui`, `@portal/shared/ui/extra`,
//    `@portal/shared/ui/menus` and `@portal/shared/ui/button`;
//  - react-router / react-router-dom: only through `@portal/shared/web/router`;
//  - @reduxjs/toolkit, RTK Query and react-redux: only through `@portal/shared/web/store`;
//  - rxjs: the portal's buses live in `@portal/shared/web/events`.
// Each is then exactly one instance (the shell's), tree-shaken to what the portal uses. Lint forbids
// importing them anywhere else; bench/bundle measures the first page and checks nothing loads twice.
//
// @portal/shared is the contract between the shell and its remotes, versioned by its package version
// (semver; shared/CHANGELOG.md): a remote built against contract 1.x requires ^1.0.0 of each module it
// takes, and with strictVersion federation refuses to hand it another major (the remote then shows
// "Reports cannot open in this version of the portal", naming both versions: web/failures.ts).
const sharedPkg = require('../package.json');

const deps = sharedPkg.dependencies;
/** The contract range a container is built against: this major, this version or later. */
const CONTRACT_RANGE = `^${sharedPkg.version}`;

/** @param {string} requiredVersion */
const singleton = (requiredVersion, extra = {}) => ({
  singleton: true,
  requiredVersion,
  strictVersion: false,
  ...extra,
});

/** A module of the contract: one instance, and only of a version in the contract range. */
const contract = (extra = {}) => ({
  ...singleton(CONTRACT_RANGE, extra),
  version: sharedPkg.version,
  strictVersion: true,
});

/**
 * @param {{ host: boolean }} opts  the shell provides the UI kits and the error catalogue; remotes never
 *   bundle their own (`import: false`), so every antd component runs on the shell's one antd instance
 *   and context, and every refusal goes through the shell's one catalogue.
 */
function sharedSingletons({ host }) {
  const kit = host ? {} : { import: false };
  return {
    react: singleton(deps.react),
    // the trailing slash shares react/jsx-runtime and react-dom/client
    'react/': singleton(deps.react),
    'react-dom': singleton(deps['react-dom']),
    'react-dom/': singleton(deps['react-dom']),
    '@portal/shared/ui': contract(kit),
    '@portal/shared/ui/extra': contract(kit),
    '@portal/shared/ui/menus': contract(kit),
    '@portal/shared/ui/button': contract(kit),
    // the error catalogue and its toast: the shell's own (its error path loads it on the first failed
    // call), so a remote's refusal shown on a form and the shell's toast share one record of it
    '@portal/shared/core/errors': contract(kit),
    '@portal/shared/': contract(),
  };
}

module.exports = { sharedSingletons, CONTRACT_RANGE };
