// The webpack configuration every container builds with; each package's webpack.config.js calls it
// with its own name, exposes and port, and builds into its own dist/.
const fs = require('fs');
const path = require('path');
const { promisify } = require('util');
const zlib = require('zlib');
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

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Text worth compressing; smaller files go as they are (the headers would outweigh the gain). */
const COMPRESSIBLE = /\.(js|mjs|cjs|css|json|map|txt|svg|webmanifest)$/;
const COMPRESS_MIN_BYTES = 1024;

/**
 * Writes `<file>.br` and `<file>.gz` next to each compressible file of 1 KB or more (a copy that is not
 * smaller is left out): the api serves them to browsers that accept them (@fastify/static's
 * `preCompressed`), so nothing is compressed at run time. HTML is left alone: the api sends each page
 * with a CSP nonce of its own.
 */
class PrecompressPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: 'PrecompressPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        async () => {
          const assets = compilation
            .getAssets()
            .filter(
              ({ name, source, info }) =>
                COMPRESSIBLE.test(name) && !info.compressed && source.size() >= COMPRESS_MIN_BYTES,
            );
          await Promise.all(
            assets.map(async ({ name, source, info }) => {
              const body = source.buffer();
              const copies = await Promise.all([
                brotli(body, {
                  params: {
                    [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
                  },
                }),
                gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
              ]);
              ['br', 'gz'].forEach((extension, i) => {
                if (copies[i].length >= body.length) return;
                compilation.emitAsset(`${name}.${extension}`, new sources.RawSource(copies[i]), {
                  compressed: true,
                  immutable: info.immutable,
                });
              });
            }),
          );
        },
      );
    });
  }
}

/** The remote's declaration (routes, navigation, module gate): src/portal-module.json in its folder. */
const DECLARATION_SOURCE = path.join('src', 'portal-module.json');
/** Where each build publishes it: next to mf-manifest.json, so every release carries its own. */
const DECLARATION_FILE = 'portal-module.json';

/**
 * Publishes a remote's declaration with its build (`portal-module.json`, beside mf-manifest.json): the
 * api reads it from the release the manifest points at and tells the shell, which builds its routes
 * and navigation from it. A build without one fails: the shell could not show the remote anywhere.
 * It is checked against the contract's schema by the remote's own test (portal-module.test.ts) and
 * again by the api when it reads it.
 */
class PortalDeclarationPlugin {
  constructor(dir) {
    this.file = path.join(dir, DECLARATION_SOURCE);
  }
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PortalDeclarationPlugin', (compilation) => {
      compilation.fileDependencies.add(this.file);
      compilation.hooks.processAssets.tap(
        { name: 'PortalDeclarationPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          let text;
          try {
            text = fs.readFileSync(this.file, 'utf8');
            JSON.parse(text);
          } catch (error) {
            compilation.errors.push(
              new compiler.webpack.WebpackError(`${DECLARATION_SOURCE}: ${error.message} (docs/federation.md)`),
            );
            return;
          }
          compilation.emitAsset(DECLARATION_FILE, new sources.RawSource(text));
        },
      );
    });
  }
}

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
        // Eight hex digits of the content's hash name a file's version: each container's runtime
        // carries the name of every chunk it may load (the shell's 53 and a remote's 40-odd on the
        // first page), and those names, random to gzip, were about 270 bytes of the first page at
        // twelve. Two builds of one chunk share a name once in four billion changes.
        filename: production ? '[name].[contenthash:8].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
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
          ? [
              new HtmlWebpackPlugin({
                template: './src/index.html',
                title: 'Portal',
                scriptLoading: 'defer',
                // emitted as /favicon.ico (the address browsers and tools ask for) and linked from the page
                favicon: './src/favicon.ico',
              }),
            ]
          : []),
        ...(opts.host ? [] : [new PortalDeclarationPlugin(opts.dir)]),
        new BundleReportPlugin(),
        ...(production ? [new PrecompressPlugin()] : []),
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

module.exports = { portalWebpackConfig, DECLARATION_FILE };
