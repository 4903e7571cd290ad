import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The repository root. */
export const root = path.resolve(import.meta.dirname, '../..');

/** Every .ts and .vue file under a folder of the repository (relative paths), node_modules left out. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(path.join(root, dir));
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const rel = path.join(dir, entry);
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|vue)$/.test(entry)) out.push(rel);
  }
  return out;
}

/** The module specifiers a file imports or re-exports, type-only ones included. */
export function imports(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [
    ...text.matchAll(
      /(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? '');
}

/** The repository-relative file a relative specifier names; null for a package. */
export function resolved(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  return path.relative(root, path.resolve(root, path.dirname(file), spec));
}

/** The import cycles among files (strongly connected components of more than one file, or a self-import). */
export function importCycles(files: readonly string[]): string[][] {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files)
    edges.set(
      file,
      imports(file)
        .map((spec) => resolved(file, spec))
        .filter((target): target is string => target !== null && known.has(target)),
    );
  // Tarjan's algorithm, iterative enough for a source tree of a few hundred files.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}
