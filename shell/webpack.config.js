// The shell: the federation host. Registers remotes at run time from /remotes.json, so a remote
// can move or be redeployed without rebuilding the shell.
const { portalWebpackConfig } = require('@portal/shared/federation/webpack');

module.exports = portalWebpackConfig({ dir: __dirname, name: 'shell', host: true, port: 3000 });
