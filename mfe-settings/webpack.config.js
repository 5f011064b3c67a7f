// mfe-settings: a remote of the portal. Builds into mfe-settings/dist (mf-manifest.json, remoteEntry.js, hashed chunks).
const { portalWebpackConfig } = require('@portal/shared/federation/webpack');

module.exports = portalWebpackConfig({
  dir: __dirname,
  name: 'mfe-settings',
  exposes: { './App': './src/App.tsx' },
  port: 3003,
});
