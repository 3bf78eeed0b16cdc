// Part of npm run lint: cruises src/ with dependency-cruiser (.dependency-cruiser.cjs), takes each
// src/<module>/ folder as one node (its dto/ and other subfolders included, which the folder rules
// of .dependency-cruiser.cjs see as folders of their own) and fails on any cycle between modules,
// naming one import of each step.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const moduleOf = (file) => /^src\/[^/]+\//.exec(file)?.[0] ?? null;
// The package exports no path to its command; npm links it here.
const depcruise = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'depcruise');
const json = execFileSync(depcruise, ['src', '--config', '.dependency-cruiser.cjs', '-T', 'json'], {
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
});
const { modules } = JSON.parse(json);

/** For each module, the modules it imports, each with one file-level import that shows it. */
const graph = new Map();
for (const { source, dependencies } of modules) {
  const from = moduleOf(source);
  if (!from) continue;
  const edges = graph.get(from) ?? new Map();
  graph.set(from, edges);
  for (const { resolved } of dependencies) {
    const to = moduleOf(resolved);
    if (to && to !== from && !edges.has(to)) edges.set(to, `${source} → ${resolved}`);
  }
}

// Tarjan's strongly connected components: a component of more than one module is a cycle.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(node) {
  index.set(node, counter);
  low.set(node, counter++);
  stack.push(node);
  onStack.add(node);
  for (const next of graph.get(node)?.keys() ?? []) {
    if (!index.has(next)) {
      visit(next);
      low.set(node, Math.min(low.get(node), low.get(next)));
    } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
  }
  if (low.get(node) !== index.get(node)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== node);
  if (component.length > 1) cycles.push(component.sort());
}
for (const node of graph.keys()) if (!index.has(node)) visit(node);

if (cycles.length === 0) {
  console.log(`✔ no cycle between the ${graph.size} modules of src/`);
} else {
  for (const component of cycles) {
    console.error(`✖ a cycle between the modules ${component.join(', ')}:`);
    for (const from of component) {
      for (const [to, example] of graph.get(from)) if (component.includes(to)) console.error(`    ${example}`);
    }
  }
  process.exit(1);
}
