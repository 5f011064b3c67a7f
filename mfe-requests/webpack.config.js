// mfe-requests: a remote of the portal. Builds into mfe-requests/dist (mf-manifest.json, remoteEntry.js, hashed chunks).
const { portalWebpackConfig } = require('@portal/shared/federation/webpack');

module.exports = portalWebpackConfig({
  dir: __dirname,
  name: 'mfe-requests',
  exposes: { './App': './src/App.tsx' },
  port: 3002,
});
