/**
 * Loaded without type checking (`npm run typecheck` checks this file; checking it again cost every
 * jest run about a second).
 *
 * @jest-config-loader-options {"transpileOnly": true}
 */
import { availableParallelism } from 'node:os';
import type { Config } from 'jest';

/**
 * One jest project per package (displayName = folder), so each remote's pipeline runs alone:
 * `npx jest --selectProjects mfe-requests` or `npm test -w mfe-requests`.
 */
const tsJest: Config['transform'] = {
  '^.+\\.(t|j)sx?$|^.+\\.mjs$': [
    'ts-jest',
    {
      // Type checking is `npm run typecheck`; jest only transpiles (CommonJS, as ts-jest needs).
      tsconfig: {
        module: 'CommonJS',
        moduleResolution: 'Node10',
        jsx: 'react-jsx',
        esModuleInterop: true,
        isolatedModules: true,
        allowJs: true,
      },
    },
  ],
};

const web = (name: string): Config => ({
  displayName: name,
  rootDir: `<rootDir>/${name}`,
  // jsdom that keeps Node's fetch, streams and timers, so msw can serve unit tests
  testEnvironment: 'jest-fixed-jsdom',
  transform: tsJest,
  setupFilesAfterEnv: ['<rootDir>/../shared/src/testing/setup-jsdom.ts'],
  moduleNameMapper: {
    '\\.(css|less)$': '<rootDir>/../shared/src/testing/style-mock.ts',
    // some antd dependencies reach into each other's ES builds (and the kit imports one antd/es
    // module, ui/tooltip-unique-provider); jest runs their CommonJS builds
    '^(antd|@ant-design/[^/]+|@rc-component/[^/]+|rc-[^/]+)/es/(.*)$': '$1/lib/$2',
  },
  testMatch: ['<rootDir>/src/**/*.test.ts?(x)'],
  // msw's helpers ship as ES modules only: jest transpiles them like our code
  transformIgnorePatterns: [
    '/node_modules/(?!(rettime|until-async|@mswjs|@open-draft|outvariant|strict-event-emitter|headers-polyfill|@bundled-es-modules)/)',
  ],
});

const config: Config = {
  // one worker per core (jest's default leaves one core to its own parent process, which idles)
  maxWorkers: availableParallelism(),
  projects: [
    web('shared'),
    web('shell'),
    web('mfe-projects'),
    web('mfe-requests'),
    web('mfe-settings'),
    web('mfe-reports'),
    {
      displayName: 'api',
      rootDir: '<rootDir>/api',
      testEnvironment: 'node',
      transform: tsJest,
      // @fastify/static's content-disposition ships as an ES module only: jest transpiles it like our code
      transformIgnorePatterns: ['/node_modules/(?!(@fastify/static/node_modules/)?content-disposition/)'],
      setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
      // the migrated and the seeded database each test app starts from, built once per run
      globalSetup: '<rootDir>/src/test/global-setup.ts',
      globalTeardown: '<rootDir>/src/test/global-teardown.ts',
      testMatch: ['<rootDir>/src/**/*.test.ts'],
    },
    {
      displayName: 'lint',
      rootDir: '<rootDir>/lint',
      testEnvironment: 'node',
      transform: tsJest,
      testMatch: ['<rootDir>/**/*.test.ts'],
      testPathIgnorePatterns: ['/fixtures/'],
    },
  ],
};

export default config;
