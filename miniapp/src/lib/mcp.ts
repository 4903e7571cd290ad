/**
 * The agent configurations of the Connect screen, and its Test: a real MCP `initialize` and
 * `tools/list` over Streamable HTTP to this server's /mcp with the token just created.
 */
export type Client =
  'claude_desktop' | 'claude_code' | 'cursor' | 'lm_studio' | 'generic' | 'remote';
export const CLIENTS: Client[] = [
  'claude_desktop',
  'claude_code',
  'cursor',
  'lm_studio',
  'generic',
  'remote',
];

export function configFor(client: Client, url: string, token: string): string {
  const auth = `Bearer ${token}`;
  const json = (v: unknown): string => JSON.stringify(v, null, 2);
  switch (client) {
    case 'claude_desktop':
      return json({
        mcpServers: {
          exhale: {
            command: 'npx',
            args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${EXHALE_AUTH}'],
            env: { EXHALE_AUTH: auth },
          },
        },
      });
    case 'claude_code':
      return `claude mcp add --transport http exhale ${url} --header "Authorization: ${auth}"`;
    case 'cursor':
    case 'lm_studio':
      return json({ mcpServers: { exhale: { url, headers: { Authorization: auth } } } });
    case 'generic':
      return `URL: ${url}\nTransport: Streamable HTTP\nHeader: Authorization: ${auth}`;
    case 'remote':
      return url;
  }
}

export interface TestResult {
  server: string;
  protocol: string;
  tools: string[];
}

async function rpc(
  url: string,
  token: string,
  id: number,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status}: ${text.slice(0, 200)}`);
  // A JSON answer, or a server-sent event stream carrying it.
  const body = text.trimStart().startsWith('{')
    ? text
    : (text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .find((l) => l.includes(`"id":${id}`)) ?? '{}');
  const message = JSON.parse(body) as {
    result?: Record<string, unknown>;
    error?: { message?: string };
  };
  if (message.error) throw new Error(message.error.message ?? 'error');
  return message.result ?? {};
}

export async function testConnection(url: string, token: string): Promise<TestResult> {
  const init = await rpc(url, token, 1, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'exhale-miniapp-test', version: '1' },
  });
  const info = (init.serverInfo ?? {}) as { name?: string; version?: string };
  const list = await rpc(url, token, 2, 'tools/list', {});
  const tools = Array.isArray(list.tools)
    ? (list.tools as { name?: string }[]).map((x) => x.name ?? '')
    : [];
  return {
    server: `${info.name ?? '?'} ${info.version ?? ''}`.trim(),
    protocol: String(init.protocolVersion ?? ''),
    tools,
  };
}
