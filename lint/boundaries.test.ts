/**
 * Proves the package boundaries are enforced: each case lints a small source text as if it stood at a
 * path inside a package, through the repository's real ESLint config, and expects the rule to fire
 * (or, for the allowed imports, to stay quiet).
 */
import { execFileSync } from 'child_process';
import path from 'path';

const root = path.resolve(__dirname, '..');
const eslintBin = path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');

interface LintMessage {
  ruleId: string | null;
  message: string;
}

function lint(filePath: string, source: string): LintMessage[] {
  const out = execFileSync(
    process.execPath,
    [eslintBin, '--stdin', '--stdin-filename', filePath, '--format', 'json', '--no-warn-ignored'],
    {
      cwd: root,
      input: source,
      encoding: 'utf8',
      // exit code 1 means "problems found": we read them from stdout
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  ).toString();
  return parse(out);
}

function lintAllowingErrors(filePath: string, source: string): LintMessage[] {
  try {
    return lint(filePath, source);
  } catch (e) {
    const err = e as { stdout?: string; status?: number };
    if (err.status === 1 && err.stdout) return parse(err.stdout);
    throw e;
  }
}

function parse(out: string): LintMessage[] {
  const results = JSON.parse(out) as { messages: LintMessage[] }[];
  return results.flatMap((r) => r.messages);
}

const rules = (msgs: LintMessage[]) => msgs.map((m) => m.ruleId);

jest.setTimeout(60_000);

describe('package boundaries', () => {
  it('fails a remote that imports another remote by relative path', () => {
    const msgs = lintAllowingErrors(
      'mfe-requests/src/boundary-fixture.ts',
      "import ReportsApp from '../../mfe-reports/src/App';\nexport const x = ReportsApp;\n",
    );
    expect(rules(msgs)).toContain('import/no-restricted-paths');
  });

  it('fails a remote that imports another remote by package name', () => {
    const msgs = lintAllowingErrors(
      'mfe-requests/src/boundary-fixture.ts',
      "import ReportsApp from '@portal/mfe-reports/src/App';\nexport const x = ReportsApp;\n",
    );
    expect(rules(msgs)).toContain('no-restricted-imports');
  });

  it('fails a remote that imports the shell', () => {
    const msgs = lintAllowingErrors(
      'mfe-projects/src/boundary-fixture.ts',
      "import { PortalApp } from '../../shell/src/app/portal-app';\nexport const x = PortalApp;\n",
    );
    expect(rules(msgs)).toContain('import/no-restricted-paths');
  });

  it('fails shared when it imports one of our packages', () => {
    const msgs = lintAllowingErrors(
      'shared/src/web/boundary-fixture.ts',
      "import { RemoteMount } from '../../../shell/src/federation/remote-mount';\nexport const x = RemoteMount;\n",
    );
    expect(rules(msgs)).toContain('import/no-restricted-paths');
  });

  it('fails the api when it imports shared web code, and allows shared/core', () => {
    const bad = lintAllowingErrors(
      'api/src/boundary-fixture.ts',
      "import { portalApi } from '@portal/shared/web/api';\nexport const x = portalApi;\n",
    );
    expect(rules(bad)).toContain('no-restricted-imports');
    const good = lintAllowingErrors(
      'api/src/boundary-fixture.ts',
      "import { ERROR_MESSAGES } from '@portal/shared/core/errors';\nexport const x = ERROR_MESSAGES;\n",
    );
    expect(rules(good)).toEqual([]);
  });

  it('fails a remote that imports antd directly instead of the UI kit', () => {
    const msgs = lintAllowingErrors(
      'mfe-reports/src/boundary-fixture.tsx',
      "import { Button } from 'antd';\nexport const x = Button;\n",
    );
    expect(rules(msgs)).toContain('no-restricted-imports');
  });

  it('fails a remote that imports react-router or react-redux directly instead of through shared', () => {
    expect(
      rules(
        lintAllowingErrors(
          'mfe-reports/src/boundary-fixture.tsx',
          "import { useParams } from 'react-router-dom';\nexport const x = useParams;\n",
        ),
      ),
    ).toContain('no-restricted-imports');
    expect(
      rules(
        lintAllowingErrors(
          'mfe-reports/src/boundary-fixture.tsx',
          "import { useSelector } from 'react-redux';\nexport const x = useSelector;\n",
        ),
      ),
    ).toContain('no-restricted-imports');
  });

  it('accepts a remote that uses shared and libraries only', () => {
    const msgs = lintAllowingErrors(
      'mfe-reports/src/boundary-fixture.tsx',
      "import { Button } from '@portal/shared/ui';\nimport { useParams } from '@portal/shared/web/router';\nimport { useMemo } from 'react';\nexport const x = [Button, useParams, useMemo];\n",
    );
    expect(rules(msgs)).toEqual([]);
  });
});
