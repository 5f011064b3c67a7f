/**
 * Proves the package boundaries are enforced: each case lints a small source text as if it stood at a
 * path inside a package, through the repository's real ESLint config, and expects the rule to fire
 * (or, for the allowed imports, to stay quiet).
 */
import { execFileSync } from 'child_process';
import path from 'path';

interface Case {
  filePath: string;
  source: string;
}

/** The cases, each a source text and the path it is linted at. */
const CASES = {
  remoteByPath: {
    filePath: 'mfe-requests/src/boundary-fixture.ts',
    source: "import ReportsApp from '../../mfe-reports/src/App';\nexport const x = ReportsApp;\n",
  },
  remoteByName: {
    filePath: 'mfe-requests/src/boundary-fixture.ts',
    source: "import ReportsApp from '@portal/mfe-reports/src/App';\nexport const x = ReportsApp;\n",
  },
  shell: {
    filePath: 'mfe-projects/src/boundary-fixture.ts',
    source: "import { PortalApp } from '../../shell/src/app/portal-app';\nexport const x = PortalApp;\n",
  },
  sharedImportsOurs: {
    filePath: 'shared/src/web/boundary-fixture.ts',
    source:
      "import { RemoteMount } from '../../../shell/src/federation/remote-mount';\nexport const x = RemoteMount;\n",
  },
  apiWeb: {
    filePath: 'api/src/boundary-fixture.ts',
    source: "import { portalApi } from '@portal/shared/web/api';\nexport const x = portalApi;\n",
  },
  apiCore: {
    filePath: 'api/src/boundary-fixture.ts',
    source: "import { ERROR_MESSAGES } from '@portal/shared/core/errors';\nexport const x = ERROR_MESSAGES;\n",
  },
  antd: {
    filePath: 'mfe-reports/src/boundary-fixture.tsx',
    source: "import { Button } from 'antd';\nexport const x = Button;\n",
  },
  router: {
    filePath: 'mfe-reports/src/boundary-fixture.tsx',
    source: "import { useParams } from 'react-router-dom';\nexport const x = useParams;\n",
  },
  redux: {
    filePath: 'mfe-reports/src/boundary-fixture.tsx',
    source: "import { useSelector } from 'react-redux';\nexport const x = useSelector;\n",
  },
  allowed: {
    filePath: 'mfe-reports/src/boundary-fixture.tsx',
    source:
      "import { Button } from '@portal/shared/ui';\nimport { useParams } from '@portal/shared/web/router';\nimport { useMemo } from 'react';\nexport const x = [Button, useParams, useMemo];\n",
  },
} satisfies Record<string, Case>;

type CaseName = keyof typeof CASES;

let ruleIds: Record<CaseName, (string | null)[]>;

// Every case linted by one ESLint process (lint-texts.mjs): the config and its typed rules load once,
// not once per case.
beforeAll(() => {
  const names = Object.keys(CASES) as CaseName[];
  const out = execFileSync(process.execPath, [path.join(__dirname, 'lint-texts.mjs')], {
    cwd: path.resolve(__dirname, '..'),
    input: JSON.stringify(names.map((name) => CASES[name])),
    encoding: 'utf8',
  });
  const lists = JSON.parse(out) as (string | null)[][];
  ruleIds = Object.fromEntries(names.map((name, i) => [name, lists[i]])) as typeof ruleIds;
}, 120_000);

const rules = (name: CaseName) => ruleIds[name];

describe('package boundaries', () => {
  it('fails a remote that imports another remote by relative path', () => {
    expect(rules('remoteByPath')).toContain('import/no-restricted-paths');
  });

  it('fails a remote that imports another remote by package name', () => {
    expect(rules('remoteByName')).toContain('no-restricted-imports');
  });

  it('fails a remote that imports the shell', () => {
    expect(rules('shell')).toContain('import/no-restricted-paths');
  });

  it('fails shared when it imports one of our packages', () => {
    expect(rules('sharedImportsOurs')).toContain('import/no-restricted-paths');
  });

  it('fails the api when it imports shared web code, and allows shared/core', () => {
    expect(rules('apiWeb')).toContain('no-restricted-imports');
    expect(rules('apiCore')).toEqual([]);
  });

  it('fails a remote that imports antd directly instead of the UI kit', () => {
    expect(rules('antd')).toContain('no-restricted-imports');
  });

  it('fails a remote that imports react-router or react-redux directly instead of through shared', () => {
    expect(rules('router')).toContain('no-restricted-imports');
    expect(rules('redux')).toContain('no-restricted-imports');
  });

  it('accepts a remote that uses shared and libraries only', () => {
    expect(rules('allowed')).toEqual([]);
  });
});
