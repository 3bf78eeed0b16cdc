// npm run sql:render: writes every statement the modules list (their *.queries.ts) to the module's
// queries/<name>.sql and removes the files of statements no longer listed.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkedInFiles, renderedFiles, REPOSITORY_ROOT } from '../test/support/reviewed-queries';

const wanted = renderedFiles();
const present = checkedInFiles();
for (const [file, text] of wanted) {
  if (present.get(file) === text) continue;
  mkdirSync(path.dirname(path.join(REPOSITORY_ROOT, file)), { recursive: true });
  writeFileSync(path.join(REPOSITORY_ROOT, file), text);
  console.log(`${present.has(file) ? 'changed' : 'new'}: ${file}`);
}
for (const file of present.keys()) {
  if (wanted.has(file)) continue;
  rmSync(path.join(REPOSITORY_ROOT, file));
  console.log(`removed: ${file}`);
}
console.log(`${wanted.size} statements`);
