// The second half of the server build (scripts/serverBuild.mjs runs it as a child process, as it
// runs tsc): bundles the compiled JavaScript of core/, bot/, mcp/ and miniapp/server/ into a few
// files, so a start reads a few dozen files instead of about four hundred of its own, and knex with
// its dependencies (`BUNDLED`, three hundred more); other packages stay outside, imported from
// node_modules as before. Every dynamic import becomes its own chunk, so what a command loads
// lazily (the MCP SDK, grammY) stays lazy.
//
// A compiled module that finds a file from `import.meta.url` (the locales, package.json, a
// `createRequire`) gets the URL of its own compiled file instead of the bundle's, so it reads the
// same files beside it in the build. Usage: node scripts/bundleServer.mjs <build folder>.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import console from 'node:console';
import process from 'node:process';

/** esbuild, as tsx (a dependency of Exhale) installs it. */
function loadEsbuild() {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx'));
  return fromTsx('esbuild');
}

/**
 * Packages bundled in: knex and its own dependencies (lodash alone is 255 small files a start
 * would otherwise read one by one). esbuild initialises a bundled CommonJS module on its first
 * require, as Node does, so what knex loads lazily (its other dialects) stays unevaluated; the
 * drivers those dialects require stay outside. Every other package stays in node_modules.
 */
const BUNDLED = new Set([
  'knex',
  'lodash',
  'tarn',
  'debug',
  'ms',
  'colorette',
  'getopts',
  'pg-connection-string',
  'escalade',
  'rechoir',
  'interpret',
  'resolve-from',
  'tildify',
  'get-package-type',
  'commander',
  'esm',
  // zod (about 95 files a start loads) and hono (about 35): Exhale's own schemas and edge. The
  // MCP SDK, outside, keeps its own zod for its protocol. What Exhale hands it (tools' JSON Schema,
  // prompts' argument schemas) it reads by shape (Standard Schema, `.shape`), never by instanceof,
  // and zod keeps its metadata registry and config on globalThis, one for both copies.
  'zod',
  'hono',
]);

/** The package a bare specifier names (`@scope/name` or `name`), or null for a path. */
function packageOf(spec) {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) return null;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? null);
}

const build = process.argv[2];
if (!build) {
  console.error('usage: node scripts/bundleServer.mjs <build folder>');
  process.exit(2);
}
const out = path.join(build, 'bundle');
const esbuild = loadEsbuild();
try {
  await esbuild.build({
    entryPoints: [path.join(build, 'bot/cli.js')],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: out,
    // Paths in the output (its module comments, so its chunks' content hashes) are relative to the
    // build folder, whose name changes per build: the same sources give the same chunk names.
    absWorkingDir: path.resolve(build),
    // A bundled CommonJS module's `require` of an outside package, from this ES module.
    banner: {
      js: "import { createRequire as __exhaleRequire } from 'node:module'; const require = __exhaleRequire(import.meta.url);",
    },
    logLevel: 'silent',
    plugins: [
      {
        name: 'outside-packages',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            const name = packageOf(args.path);
            if (name === null || name.startsWith('node:')) return undefined;
            return BUNDLED.has(name) ? undefined : { path: args.path, external: true };
          });
        },
      },
      {
        name: 'own-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /\.js$/ }, (args) => {
            const text = readFileSync(args.path, 'utf8');
            if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
            const own = path.relative(out, args.path).split(path.sep).join('/');
            return {
              contents: text.replaceAll(
                'import.meta.url',
                `new URL(${JSON.stringify(own)}, import.meta.url).href`,
              ),
              loader: 'js',
            };
          });
        },
      },
    ],
  });
} catch (error) {
  const first = error?.errors?.[0];
  console.error(first ? `${first.text} (${first.location?.file ?? 'bundle'})` : String(error));
  process.exit(1);
}
