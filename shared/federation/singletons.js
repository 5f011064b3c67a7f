// The federation's shared singletons, written out once (CONVENTIONS.md "One of each").
// Every container (the shell and each remote) uses this list, so versions are checked everywhere.
//
// antd is deliberately absent: sharing `antd` whole ships all of it on the first page. All antd use
// goes through `@portal/shared/ui` (lint enforces it), which is shared below as part of
// `@portal/shared/`: one antd instance and context across the federation, tree-shaken to what we use.
const sharedPkg = require('../package.json');

const deps = sharedPkg.dependencies;

/** @param {string} requiredVersion */
const singleton = (requiredVersion) => ({ singleton: true, requiredVersion, strictVersion: false });

function sharedSingletons() {
  return {
    react: singleton(deps.react),
    // the trailing slash shares react/jsx-runtime and react-dom/client (TOOLCHAIN.md gotcha 4)
    'react/': singleton(deps.react),
    'react-dom': singleton(deps['react-dom']),
    'react-dom/': singleton(deps['react-dom']),
    'react-router': singleton(deps['react-router-dom']),
    'react-router-dom': singleton(deps['react-router-dom']),
    'react-redux': singleton(deps['react-redux']),
    '@reduxjs/toolkit': singleton(deps['@reduxjs/toolkit']),
    '@reduxjs/toolkit/': singleton(deps['@reduxjs/toolkit']),
    rxjs: singleton(deps.rxjs),
    '@portal/shared/': singleton(sharedPkg.version),
  };
}

module.exports = { sharedSingletons };
