import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import ts from 'typescript';

/**
 * Finds text keys used with fewer parameters than their texts' placeholders, by reading the
 * source: every call or `new` whose argument is a string literal naming a text key (`t(locale,
 * 'key', {…})`, `turn.t('key', {…})`, `new OpError(code, 'key', {…})`, `fieldError(ctx, field,
 * 'key', {…})`) takes the argument after it as the parameters. An object literal gives its
 * property names; no argument gives none; anything else (a variable, a spread) cannot be read
 * here and is counted as unread, not as a pass.
 */
export interface PlaceholderFinding {
  where: string;
  key: string;
  missing: string[];
}

export interface PlaceholderScan {
  findings: PlaceholderFinding[];
  /** Call sites checked: a key with parameters read from the source. */
  checked: number;
  /** Call sites whose parameters are not an object literal (checked elsewhere, or by rendering). */
  unread: number;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** Each key's placeholders, over every locale (a text may use a parameter the other does not). */
export function placeholdersOf(
  catalogs: ReadonlyArray<Readonly<Record<string, string>>>,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const catalog of catalogs)
    for (const [key, text] of Object.entries(catalog)) {
      const set = out.get(key) ?? new Set<string>();
      for (const m of text.matchAll(PLACEHOLDER)) if (m[1]) set.add(m[1]);
      out.set(key, set);
    }
  return out;
}

/**
 * Helpers that take a key and pass some parameters themselves, with those parameters: checked
 * with them added (`tooDeep(key)` in core/kernel/jsonDepth.ts gives `max`).
 */
const FILLED_BY: Readonly<Record<string, readonly string[]>> = {
  tooDeep: ['max'],
  // `turn.t(key)` (core/chat/turn.ts, the only `.t` method): the channel's word for a group chat.
  '.t': ['group', 'groups'],
};

/** Callees whose string argument is a key asked about, not a text rendered (`TEXT_KEYS.includes(k)`). */
const NOT_RENDERING = new Set(['includes', 'has', 'get', 'startsWith', 'endsWith', 'push', 'add']);

export function scanSource(
  file: string,
  text: string,
  placeholders: ReadonlyMap<string, ReadonlySet<string>>,
): PlaceholderScan {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const scan: PlaceholderScan = { findings: [], checked: 0, unread: 0 };
  const visit = (node: ts.Node): void => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && !skipped(node)) {
      const args = node.arguments ?? ts.factory.createNodeArray<ts.Expression>();
      args.forEach((arg, i) => {
        if (!ts.isStringLiteral(arg) && !ts.isNoSubstitutionTemplateLiteral(arg)) return;
        const wanted = placeholders.get(arg.text);
        if (!wanted) return;
        const given = givenParams(args[i + 1]);
        for (const filled of FILLED_BY[fillerOf(node)] ?? []) given?.add(filled);
        if (given === null) {
          scan.unread += 1;
          return;
        }
        scan.checked += 1;
        const missing = [...wanted].filter((p) => !given.has(p));
        if (missing.length > 0) {
          const { line } = source.getLineAndCharacterOfPosition(arg.getStart());
          scan.findings.push({ where: `${file}:${line + 1}`, key: arg.text, missing });
        }
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return scan;
}

/** `FILLED_BY`'s key of a call: the function's name, or `.name` for a method. */
function fillerOf(node: ts.CallExpression | ts.NewExpression): string {
  const name = calleeName(node);
  return ts.isPropertyAccessExpression(node.expression) ? `.${name}` : name;
}

function calleeName(node: ts.CallExpression | ts.NewExpression): string {
  const callee = node.expression;
  return ts.isPropertyAccessExpression(callee)
    ? callee.name.text
    : ts.isIdentifier(callee)
      ? callee.text
      : '';
}

function skipped(node: ts.CallExpression | ts.NewExpression): boolean {
  return NOT_RENDERING.has(calleeName(node));
}

/** The parameter names an argument gives, or null when the source does not say. */
function givenParams(arg: ts.Expression | undefined): Set<string> | null {
  if (arg === undefined) return new Set();
  if (!ts.isObjectLiteralExpression(arg)) return null;
  const names = new Set<string>();
  for (const prop of arg.properties) {
    if (ts.isSpreadAssignment(prop)) return null;
    const name = prop.name;
    if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name))) names.add(name.text);
    else return null;
  }
  return names;
}

/** Every `.ts` file under these folders of the repository. */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) out.push(path);
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return out.sort();
}

export function scanTree(
  root: string,
  folders: readonly string[],
  placeholders: ReadonlyMap<string, ReadonlySet<string>>,
): PlaceholderScan {
  const total: PlaceholderScan = { findings: [], checked: 0, unread: 0 };
  for (const path of sourceFiles(root, folders)) {
    const scan = scanSource(relative(root, path), readFileSync(path, 'utf8'), placeholders);
    total.findings.push(...scan.findings);
    total.checked += scan.checked;
    total.unread += scan.unread;
  }
  return total;
}
