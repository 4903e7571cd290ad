import { readFileSync, writeFileSync } from 'node:fs';

import { z } from 'zod';

import { SURFACES } from '../core/kernel/op.ts';
import { catalog } from '../core/ops/catalog.ts';

/**
 * Writes docs/ops.md, the reference of every op, from the catalog. `--check` fails when the file
 * on disk differs, so the reference cannot drift from the code.
 */
const target = new URL('../docs/ops.md', import.meta.url);

interface JsonProp {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  anyOf?: JsonProp[];
  items?: JsonProp;
}

/** A readable type for a JSON Schema property: `string \| null`, `"a" \| "b"`, `array of string`. */
function typeOf(prop: JsonProp): string {
  if (prop.enum) return prop.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (prop.anyOf) return prop.anyOf.map(typeOf).join(' \\| ');
  if (Array.isArray(prop.type)) return prop.type.join(' \\| ');
  if (prop.type === 'array' && prop.items) return `array of ${typeOf(prop.items)}`;
  return prop.type ?? 'object';
}

function fields(schema: z.ZodType): string[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonProp>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const required = json.required?.includes(name) ? ' (required)' : '';
    const description =
      prop.description ?? prop.anyOf?.find((p) => p.description)?.description ?? '';
    return `| \`${name}\`${required} | ${typeOf(prop)} | ${description.replace(/\|/g, '\\|')} |`;
  });
}

const lines = [
  '# Op reference',
  '',
  '<!-- Generated from core/ops/catalog.ts by `npm run docs:ops`. Do not edit by hand. -->',
  '',
  "Every op is one use case. The same name is the MCP tool, the assistant tool, the web API route and the activity entry. Amounts are decimal strings, dates are `YYYY-MM-DD` in the household's time zone.",
  '',
  '| op | effect | least scope | title |',
  '|---|---|---|---|',
  ...catalog.map(
    (op) => `| [\`${op.name}\`](#${op.name}) | ${op.effect} | ${op.scope} | ${op.title} |`,
  ),
  '',
];
for (const op of catalog) {
  const flags = [
    op.financial ? 'financial' : '',
    op.idempotent ? 'idempotent' : '',
    op.ownerOnly ? 'owner only' : '',
  ].filter(Boolean);
  const offered = SURFACES.filter((s) => op.exclude?.[s] === undefined);
  lines.push(`## ${op.name}`, '', `**${op.title}.** ${op.description}`, '');
  lines.push(
    `- Effect: ${op.effect}; least scope: ${op.scope}${flags.length > 0 ? `; ${flags.join(', ')}` : ''}.`,
  );
  lines.push(`- Offered on: ${offered.join(', ')}.`);
  for (const [surface, reason] of Object.entries(op.exclude ?? {}))
    lines.push(`- Not on ${surface}: ${reason}`);
  const inputRows = fields(op.input);
  if (inputRows.length > 0)
    lines.push('', '| input | type | meaning |', '|---|---|---|', ...inputRows);
  lines.push('');
}
const text = `${lines.join('\n')}`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current !== text) {
    console.error('docs/ops.md is stale: run `npm run docs:ops` and commit the result.');
    process.exit(1);
  }
  console.log('docs/ops.md is up to date.');
} else {
  writeFileSync(target, text);
  console.log(`Wrote docs/ops.md (${catalog.length} ops).`);
}
