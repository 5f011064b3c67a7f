// The webpack configuration every container builds with; each package's webpack.config.js calls it
// with its own name, exposes and port, and builds into its own dist/.
const path = require('path');
const { NormalModuleReplacementPlugin } = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const { sharedSingletons } = require('./singletons');
const { BundleReportPlugin } = require('./bundle-report');

/**
 * antd's ConfigProvider imports its tooltip UniqueProvider, and with it @rc-component/trigger, for
 * `tooltip={{ unique: true }}` alone (not used here): its import from ConfigProvider gets a version
 * that loads antd's on first render, which keeps the trigger off the first page. Tooltip's own
 * import of it is left alone.
 */
const lazyTooltipUniqueProvider = new NormalModuleReplacementPlugin(/^\.\.\/tooltip\/UniqueProvider$/, (resource) => {
  const issuer = resource.contextInfo?.issuer ?? '';
  if (/[\\/]antd[\\/]es[\\/]config-provider[\\/]index\.js$/.test(issuer)) {
    resource.request = require.resolve('../src/ui/tooltip-unique-provider.tsx');
  }
});

/**
 * @param {{ dir: string, name: string, host?: boolean, exposes?: Record<string,string>, port: number }} opts
 */
function portalWebpackConfig(opts) {
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    const federationName = opts.name.replace(/-/g, '_');
    return {
      mode: production ? 'production' : 'development',
      context: opts.dir,
      entry: opts.host ? { main: './src/index.ts' } : {},
      // no eval: a remote's dev server runs inside the portal's Content-Security-Policy (no 'unsafe-eval')
      devtool: production ? false : 'cheap-module-source-map',
      output: {
        path: path.join(opts.dir, 'dist'),
        // remotes resolve their chunks next to their manifest, wherever it is deployed
        publicPath: opts.host ? '/' : 'auto',
        filename: production ? '[name].[contenthash:12].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash:12].js' : '[name].js',
        uniqueName: federationName,
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.js', '.mjs'],
        // rxjs's ES2015 build (its `es2015` export condition) rather than its ES5 one, whose classes
        // are functions built with tslib's helpers: smaller, and our target is ES2020 anyway
        conditionNames: ['es2015', '...'],
      },
      module: {
        rules: [
          {
            test: /\.[jt]sx?$/,
            exclude: /node_modules/,
            use: {
              loader: 'swc-loader',
              options: {
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  // never the dev JSX runtime: a remote in development runs inside a production shell
                  transform: { react: { runtime: 'automatic', development: false } },
                  target: 'es2020',
                },
              },
            },
          },
          { test: /\.css$/, use: ['style-loader', 'css-loader'] },
          // antd's helper packages declare no `sideEffects`, so importing one name from their index
          // kept every module it re-exports (key codes, focus traps, a React root renderer, test
          // DOM hooks...) on the first page. Their modules only define things: none runs anything
          // on import.
          {
            test: /[\\/]node_modules[\\/](@rc-component[\\/][^\\/]+|@ant-design[\\/](cssinjs|cssinjs-utils|fast-color|colors))[\\/]/,
            sideEffects: false,
          },
        ],
      },
      optimization: {
        minimizer: [
          new TerserPlugin({
            minify: TerserPlugin.swcMinify,
            extractComments: false,
            terserOptions: { compress: true, mangle: true },
          }),
        ],
      },
      performance: { hints: false },
      plugins: [
        lazyTooltipUniqueProvider,
        new ModuleFederationPlugin({
          name: federationName,
          filename: 'remoteEntry.js',
          exposes: opts.exposes ?? {},
          shared: sharedSingletons({ host: !!opts.host }),
          dts: false,
          manifest: { fileName: 'mf-manifest.json' },
          // Leave out the runtime code a container never runs (it ships on every first page): all run
          // in browsers; a remote loads no remotes of its own and so needs neither the remote loader
          // nor the manifest snapshot plugin (the shell, which loads remotes by their manifests, keeps
          // both).
          // One federation runtime core on the page: the shell provides its own as a global
          // (provideExternalRuntime), and every remote entry uses that one instead of bundling a copy
          // (externalRuntime). Remotes only ever run inside the shell, which starts first.
          experiments: opts.host
            ? { optimization: { target: 'web' } }
            : { optimization: { target: 'web', disableRemote: true, disableSnapshot: true }, externalRuntime: true },
          ...(opts.host
            ? {
                remotes: {},
                runtimePlugins: [require.resolve('./provide-runtime-core.mjs')],
                // a dead remote must not blank the shell (docs/adr/0006-federation-failure-layers.md)
                shareStrategy: 'loaded-first',
              }
            : {}),
        }),
        ...(opts.host
          ? [new HtmlWebpackPlugin({ template: './src/index.html', title: 'Portal', scriptLoading: 'defer' })]
          : []),
        new BundleReportPlugin(),
      ],
      devServer: {
        port: opts.port,
        headers: { 'Access-Control-Allow-Origin': '*' },
        historyApiFallback: opts.host,
      },
      stats: 'errors-warnings',
    };
  };
}

module.exports = { portalWebpackConfig };
