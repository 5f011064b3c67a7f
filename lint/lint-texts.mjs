// Lints source texts as if each stood at a path of the repository, through its real ESLint config, in
// one process (loading the config and the typed rules once): reads [{ filePath, source }] as JSON on
// stdin and writes, for each, the rule ids of its messages (null for a parse error) as JSON.
import { ESLint } from 'eslint';
import { fileURLToPath } from 'url';

const root = fileURLToPath(new URL('..', import.meta.url));
let input = '';
for await (const chunk of process.stdin) input += chunk;
const eslint = new ESLint({ cwd: root });
const out = [];
for (const { filePath, source } of JSON.parse(input)) {
  const [result] = await eslint.lintText(source, { filePath, warnIgnored: false });
  out.push((result?.messages ?? []).map((m) => m.ruleId));
}
process.stdout.write(JSON.stringify(out));
