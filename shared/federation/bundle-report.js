// Emits bundle-report.json: for each emitted JS file, the npm packages whose code it contains
// (and, for @portal/shared, each of its source files as `@portal/shared/src/...`).
// bench/bundle reads it to tell whether a singleton (react, antd...) was loaded twice.
class BundleReportPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('BundleReportPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'BundleReportPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          const report = {};
          for (const chunk of compilation.chunks) {
            const packages = new Set();
            for (const module of compilation.chunkGraph.getChunkModulesIterable(chunk)) {
              const resources = module.modules ? module.modules.map((m) => m.resource) : [module.resource];
              for (const resource of resources) {
                const match = resource && /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(resource);
                if (match) packages.add(match[1].replace(/\\/g, '/'));
                else if (resource) {
                  // @portal/shared is federated file by file (`@portal/shared/` shares each subpath), so
                  // its duplicates are the same source file arriving twice: record which file it is.
                  const own = /[\\/]shared[\\/](src[\\/].*)$/.exec(resource);
                  if (own) packages.add(`@portal/shared/${own[1].replace(/\\/g, '/')}`);
                }
              }
            }
            for (const file of chunk.files) {
              if (file.endsWith('.js')) report[file] = [...packages].sort();
            }
          }
          compilation.emitAsset('bundle-report.json', new sources.RawSource(JSON.stringify(report, null, 1)));
        },
      );
    });
  }
}

module.exports = { BundleReportPlugin };
