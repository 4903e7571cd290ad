import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { SCOPES } from '../../core/kernel/actor.ts';
import { offeredOn } from '../../core/kernel/op.ts';
import { opsFor } from '../../core/kernel/surface.ts';
import { catalog } from '../../core/ops/catalog.ts';
import { toolDescription } from '../../mcp/instructions.ts';
import { titleOf, TOOL_NAME } from '../../mcp/tools.ts';
import { createMcpTestHousehold, ERAS, type McpTestHousehold } from './helpers.ts';

describe.each(ERAS)('MCP tools (%s era)', (era) => {
  let h: McpTestHousehold;
  beforeEach(async () => {
    h = await createMcpTestHousehold();
  });
  afterEach(async () => h.closeAll());

  it('offers every op as a tool, or excludes it with a written reason', async () => {
    const client = await h.connect((await h.token('trusted')).token, era);
    const names = new Set((await client.listTools()).tools.map((t) => t.name));
    for (const op of catalog) {
      if (offeredOn(op, 'mcp'))
        expect(names.has(op.name), `${op.name} should be a tool`).toBe(true);
      else
        expect(
          op.exclude?.mcp?.length ?? 0,
          `${op.name} needs a reason to be excluded`,
        ).toBeGreaterThan(10);
    }
    for (const secret of [
      'create_token',
      'export_data',
      'create_household',
      'join_household',
      'create_invite',
    ]) {
      expect(names.has(secret)).toBe(false);
    }
    const extra = [...names].filter((name) => !catalog.some((op) => op.name === name));
    expect(extra).toEqual([]);
  });

  it.each(SCOPES)(
    'lists for a %s token exactly the ops the kernel offers it on MCP',
    async (scope) => {
      const client = await h.connect((await h.token(scope)).token, era);
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      const offered = opsFor(catalog, { ...h.owner, kind: 'agent', scope }, 'mcp').map(
        (op) => op.name,
      );
      expect(names).toEqual([...offered, ...(scope === 'write' ? ['confirm'] : [])].sort());
    },
  );

  it('names tools by the strictest client rules and gives each schemas and annotations from its op', async () => {
    const client = await h.connect((await h.token('trusted')).token, era);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    for (const tool of tools) {
      const op = catalog.find((o) => o.name === tool.name);
      if (!op) throw new Error(`no op for ${tool.name}`);
      expect(tool.name).toMatch(TOOL_NAME);
      // The op's title only where it adds to the name (titleOf's own test pins which).
      expect(tool.title).toBe(titleOf(op));
      // The op's description, less only the sentences the server instructions state once.
      expect(tool.description).toBe(toolDescription(op.description));
      expect(op.description.startsWith(tool.description?.replace(/\.$/, '') ?? '-')).toBe(true);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      // Read as the protocol does: readOnlyHint and idempotentHint default to false,
      // destructiveHint to true, and destructiveHint and idempotentHint are only read for a tool
      // that is not read-only.
      const hints = tool.annotations ?? {};
      expect(hints.readOnlyHint ?? false, tool.name).toBe(op.effect === 'read');
      if (op.effect !== 'read') {
        expect(hints.destructiveHint ?? true, tool.name).toBe(op.effect === 'destructive');
        // A hint is sent only when it differs from the default.
        expect(hints.destructiveHint, tool.name).not.toBe(true);
        expect(hints.idempotentHint ?? false, tool.name).toBe(op.idempotent === true);
      } else {
        expect(hints.destructiveHint, tool.name).toBeUndefined();
        expect(hints.idempotentHint, tool.name).toBeUndefined();
      }
      expect(hints.openWorldHint, tool.name).toBe(false);
    }
    const create = tools.find((t) => t.name === 'create_subscription');
    expect(create?.inputSchema.required).toContain('name');
    expect(create?.inputSchema.additionalProperties).toBe(false);
  });

  it('gives a tool the title of its op only where the title says more than the name', async () => {
    const client = await h.connect((await h.token('trusted')).token, era);
    const titles = new Map((await client.listTools()).tools.map((t) => [t.name, t.title]));
    expect(titles.get('get_context')).toBe('Household briefing');
    expect(titles.get('bulk_update_subscriptions')).toBe('Change many subscriptions');
    expect(titles.get('read_statement')).toBe('Read a bank statement');
    for (const plain of ['list_members', 'get_household', 'create_subscription', 'get_totals'])
      expect(titles.get(plain), plain).toBeUndefined();
  });

  it('answers tool arguments nested deeper than any real input with a sentence, not an internal error', async () => {
    const client = await h.connect((await h.token('trusted')).token, era);
    const document: unknown = JSON.parse(
      `{"format":"exhale/1","x":${'['.repeat(200)}${']'.repeat(200)}}`,
    );
    const result = await client.callTool({ name: 'import_data', arguments: { document } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('nests more than 64 levels');
  });

  it('calls every tool and always answers with a result, never a protocol error', async () => {
    const client = await h.connect((await h.token('trusted')).token, era);
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      category: 'TV',
      tags: ['family'],
    });
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const op = catalog.find((o) => o.name === tool.name);
      if (!op) throw new Error(`no op for ${tool.name}`);
      const result = await client.callTool({ name: tool.name, arguments: {} });
      const text = (result.content as Array<{ type: string; text?: string }>)[0]?.text ?? '';
      expect(text.length, tool.name).toBeGreaterThan(0);
      expect(text, tool.name).not.toMatch(/\n\s+at /);
      const acceptsEmpty = op.input.safeParse({}).success;
      if (op.effect === 'read' && acceptsEmpty) {
        expect(result.isError, `${tool.name}: ${text}`).toBeFalsy();
        expect(op.output.safeParse(result.structuredContent).success, tool.name).toBe(true);
        expect(JSON.parse(text)).toEqual(result.structuredContent);
      }
      if (!acceptsEmpty) expect(result.isError, tool.name).toBe(true);
    }
  });

  it('returns structuredContent beside a text block with the same data, and where to undo a write', async () => {
    const client = await h.connect((await h.token('trusted')).token, era);
    const created = await client.callTool({
      name: 'create_subscription',
      arguments: { name: 'Spotify', amount: '10.99' },
    });
    expect(created.isError).toBeFalsy();
    const sub = created.structuredContent as { id: string; amount: string; name: string };
    expect(sub).toMatchObject({ name: 'Spotify', amount: '10.99', currency: 'EUR' });
    const [head, json] = ((created.content as Array<{ text: string }>)[0]?.text ?? '').split('\n');
    const activity = await h.db.knex('audit_entries').orderBy('seq', 'desc').first();
    expect(head).toContain(`undo with ids ["${activity.id}"]`);
    expect(JSON.parse(json ?? '')).toEqual(sub);
    const read = await client.callTool({ name: 'get_subscription', arguments: { id: sub.id } });
    expect(read.structuredContent).toEqual(sub);
  });

  it("turns a failing call into an isError result in the member's language", async () => {
    const luis = await h.addMember('Luis', 'es');
    const client = await h.connect((await h.token('trusted', luis)).token, era);
    const missing = await client.callTool({
      name: 'get_subscription',
      arguments: { id: 'sub_nope' },
    });
    expect(missing).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'No se encontró la suscripción sub_nope.' }],
    });
    const invalid = await client.callTool({
      name: 'create_subscription',
      arguments: { name: 'X', amount: 15.99, colour: 'red' },
    });
    expect(invalid.isError).toBe(true);
    const text = (invalid.content as Array<{ text: string }>)[0]?.text ?? '';
    expect(text).toContain('amount');
    expect(text).toContain('colour');
    expect(await h.db.knex('subscriptions').where({ name: 'X' }).first()).toBeUndefined();
  });

  it('hides internal failures behind a generic sentence', async () => {
    const client = await h.connect((await h.token('trusted')).token, era);
    const broken = catalog.find((op) => op.name === 'get_household');
    if (!broken) throw new Error('get_household missing');
    const run = broken.run;
    const quiet = console.error;
    broken.run = async () => {
      throw new Error('secret database detail');
    };
    console.error = () => undefined;
    try {
      const result = await client.callTool({ name: 'get_household', arguments: {} });
      expect(result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'Something went wrong on our side. Nothing was changed.' }],
      });
      expect(JSON.stringify(result)).not.toContain('secret');
    } finally {
      broken.run = run;
      console.error = quiet;
    }
  });

  it('states the shared rules once, in the server instructions', async () => {
    const client = await h.connect((await h.token('read')).token, era);
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('decimal strings');
    expect(instructions).toContain('YYYY-MM-DD');
    expect(instructions).toContain('confirmation_id');
    expect(instructions).toContain('series');
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.description).not.toContain('confirmation_id');
    expect(z.string().parse(client.getServerVersion()?.name)).toBe('exhale');
  });
});
