import { authenticateToken } from '../core/auth/authenticate.ts';
import { largeHousehold } from './largeHousehold.ts';
import { listToolsWith, partsOf, type ToolParts } from './toolList.ts';

/**
 * Where the bytes of tools/list go, per tool and per part (name and title, description, input
 * schema, output schema, annotations), for a token of one scope:
 *
 *   npx tsx bench/toolListBreakdown.ts [read|write|trusted] [--json]
 *
 * `--json` prints the whole list instead (what a model reads), for an agent-eye review.
 */
const args = process.argv.slice(2);
const scope = (['read', 'write', 'trusted'] as const).find((s) => args.includes(s)) ?? 'trusted';

const h = await largeHousehold({ subscriptions: 0, charges: 0 });
try {
  const { token } = (await h.core.invoke('create_token', h.owner, { name: scope, scope })).output;
  if (!(await authenticateToken(h.db, token, new Date()))) throw new Error('token refused');
  const tools = await listToolsWith(h.core, token);
  if (args.includes('--json')) {
    console.log(JSON.stringify(tools, null, 2));
  } else {
    const rows = partsOf(tools).sort((a, b) => b.total - a.total);
    const columns = ['naming', 'description', 'input', 'output', 'annotations', 'total'] as const;
    const width = Math.max(...rows.map((r) => r.name.length), 5);
    const line = (name: string, cells: readonly (string | number)[]): string =>
      `${name.padEnd(width)} ${cells.map((c) => String(c).padStart(11)).join(' ')}`;
    console.log(line('tool', columns));
    for (const row of rows)
      console.log(
        line(
          row.name,
          columns.map((c) => row[c]),
        ),
      );
    const sum = (c: keyof Omit<ToolParts, 'name'>): number => rows.reduce((n, r) => n + r[c], 0);
    console.log(
      line(
        'sum',
        columns.map((c) => sum(c)),
      ),
    );
    console.log(
      `${scope} token: ${tools.length} tools, ${Buffer.byteLength(JSON.stringify(tools))} bytes of tools/list`,
    );
  }
} finally {
  await h.close();
}
