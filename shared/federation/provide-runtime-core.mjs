// A federation runtime plugin of the shell: it hands its own runtime core to the remotes as the global
// they are built to use (experiments.externalRuntime), so one copy of it runs on the page. Imported
// as ESM, the same module the shell's runtime already bundles: the stock inject plugin requires the
// CommonJS build and so ships a second copy.
import * as runtimeCore from '@module-federation/runtime-core';

export default function provideRuntimeCore() {
  return {
    name: 'portal-provide-runtime-core',
    beforeInit(args) {
      if (!globalThis._FEDERATION_RUNTIME_CORE) globalThis._FEDERATION_RUNTIME_CORE = runtimeCore;
      return args;
    },
  };
}
