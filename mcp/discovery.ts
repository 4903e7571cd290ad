import { createHash } from 'node:crypto';
import { isIP } from 'node:net';

import type { z } from 'zod';

import { ICON_SVG, iconsFor, IDENTITY } from './identity.ts';
import { INSTRUCTIONS } from './instructions.ts';
import { resourceMetadataUrl } from './oauth/base.ts';
import { DISCOVERY_PATHS } from './paths.ts';
import { PROMPTS } from './prompts.ts';
import { PROTOCOL_REVISIONS } from './protocol.ts';
import { CONTEXT_URI, ENTITIES, HOUSEHOLD_URI } from './resources.ts';
import { opSchemas } from './schemas.ts';
import { annotationsOf } from './tools.ts';
import { type AnyOp, type Core, surfaceOps, t } from '../core/index.ts';

/** Where each discovery document lives; all are public and the same for everyone. */
export { DISCOVERY_PATHS };

type DocName = keyof typeof DISCOVERY_PATHS;

interface Doc {
  body: string;
  type: string;
  etag: string;
}

const CARD_TYPE = 'application/mcp-server-card+json';

/** The first sentence: up to the first full stop that ends one (not the one in "e.g." or "i.e."). */
function firstSentence(text: string): string {
  const end = /(?<!\b(?:e\.g|i\.e|etc|vs))\.(?=\s|$)/.exec(text);
  return end === null ? text : text.slice(0, end.index + 1);
}

/** What calling a tool takes, for llms.txt: nothing for reads; the token scope, and whether it destroys. */
function accessNote(op: AnyOp): string {
  if (op.effect === 'read') return '';
  const scope = `${op.scope} token`;
  return op.effect === 'destructive' ? ` (destructive; ${scope})` : ` (${scope})`;
}

/** The tools as a trusted owner sees them: the most any token gets. */
function publicTools(core: Core): AnyOp[] {
  return surfaceOps(core.catalog, 'mcp');
}

function promptArguments(
  spec: (typeof PROMPTS)[number],
): Array<{ name: string; description?: string; required: boolean }> {
  const none = async () => [];
  const shape = spec.args({ months: none, dates: none, categories: none }).shape as Record<
    string,
    z.ZodType
  >;
  return Object.entries(shape).map(([name, schema]) => ({
    name,
    ...(schema.description ? { description: schema.description } : {}),
    required: !schema.safeParse(undefined).success,
  }));
}

function reverseDns(host: string): string {
  // An address or a single label (localhost) is no domain to name the server under.
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0 || !host.includes('.')) return 'local';
  return host.split('.').reverse().join('.');
}

function serverCard(core: Core, base: string): unknown {
  const host = new URL(base).hostname;
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: `${reverseDns(host)}/${IDENTITY.name}`,
    version: IDENTITY.version,
    title: IDENTITY.title,
    description: IDENTITY.description,
    websiteUrl: base,
    icons: iconsFor(base),
    remotes: [
      {
        type: 'streamable-http',
        url: `${base}/mcp`,
        supportedProtocolVersions: PROTOCOL_REVISIONS,
        authentication: { required: true, schemes: ['oauth2', 'bearer'] },
        headers: [
          {
            name: 'Authorization',
            description: `"Bearer <token>": an OAuth access token (authorization server ${base}, discovered from ${resourceMetadataUrl(base)}), or a token from \`exhale token create\` (see ${base}/auth.md).`,
            isRequired: true,
            isSecret: true,
          },
        ],
      },
    ],
    capabilities: {
      tools: { listChanged: false },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: false },
      completions: {},
    },
    resources: [
      {
        uri: CONTEXT_URI,
        name: 'context',
        title: 'Household briefing',
        mimeType: 'application/json',
      },
      { uri: HOUSEHOLD_URI, name: 'household', title: 'Household', mimeType: 'application/json' },
    ],
    tools: publicTools(core).map((op) => {
      const schemas = opSchemas(op);
      return {
        name: op.name,
        title: op.title,
        description: op.description,
        inputSchema: { type: 'object', ...schemas.inputJson },
        outputSchema: { type: 'object', ...schemas.outputJson },
        annotations: annotationsOf(op),
      };
    }),
    prompts: PROMPTS.map((spec) => ({
      name: spec.name,
      title: t('en', `mcp.prompt.${spec.name}.title`),
      description: t('en', `mcp.prompt.${spec.name}.description`),
      arguments: promptArguments(spec),
    })),
    _meta: {
      'app.exhale/instructions': INSTRUCTIONS,
      'app.exhale/resourceTemplates': ENTITIES.map((e) => `exhale://${e.path}/{id}`),
      'app.exhale/auth': `${base}/auth.md`,
      'app.exhale/oauth': {
        authorization_server: base,
        protected_resource_metadata: resourceMetadataUrl(base),
        authorization_server_metadata: `${base}/.well-known/oauth-authorization-server`,
      },
    },
  };
}

function aiCatalog(base: string): unknown {
  const host = new URL(base).hostname;
  return {
    specVersion: '1.0',
    host: { displayName: IDENTITY.title, documentationUrl: `${base}/llms.txt` },
    entries: [
      {
        identifier: `urn:air:${host}:mcp:${IDENTITY.name}`,
        type: CARD_TYPE,
        url: `${base}/mcp/server-card`,
        tags: ['mcp', 'subscriptions', 'household', 'personal-finance'],
      },
    ],
  };
}

/** RFC 9727: a linkset whose items are the APIs, each described by its server card and docs. */
function apiCatalog(base: string): unknown {
  return {
    linkset: [
      {
        anchor: `${base}/.well-known/api-catalog`,
        item: [{ href: `${base}/mcp`, title: `${IDENTITY.title} MCP server` }],
      },
      {
        anchor: `${base}/mcp`,
        'service-desc': [{ href: `${base}/mcp/server-card`, type: CARD_TYPE }],
        'service-doc': [
          { href: `${base}/auth.md`, type: 'text/markdown' },
          { href: `${base}/llms.txt`, type: 'text/plain' },
        ],
        status: [{ href: `${base}/healthz`, type: 'application/json' }],
        'service-meta': [{ href: resourceMetadataUrl(base), type: 'application/json' }],
      },
    ],
  };
}

function authMd(base: string): string {
  return `# Connecting an agent to ${IDENTITY.title}

${IDENTITY.title}'s MCP server is at \`${base}/mcp\` (Streamable HTTP, stateless; protocol revisions ${PROTOCOL_REVISIONS.join(', ')}).
Every request carries a token of one member of a household: an OAuth access token (\`exa_…\`), or an agent token (\`exh_…\`):

    Authorization: Bearer <token>

## OAuth (remote agents: Claude.ai, ChatGPT, Claude Desktop, Grok)

${IDENTITY.title} is its own OAuth 2.1 authorization server, with issuer \`${base}\`. Add \`${base}/mcp\` as a custom connector; the client finds the rest:

- Protected resource metadata (RFC 9728): ${resourceMetadataUrl(base)} (also named by \`resource_metadata\` in every 401).
- Authorization server metadata (RFC 8414): ${base}/.well-known/oauth-authorization-server
- Clients: Client ID Metadata Documents (an https \`client_id\`), or dynamic client registration at ${base}/oauth/register.
- Authorization code with PKCE S256 only; \`resource\` (RFC 8707) is required and must be \`${base}/mcp\`; \`iss\` is in every authorization response.
- Access tokens last 1 hour; refresh tokens 30 days from last use and are rotated on every use. A refresh token used again within 30 seconds of its rotation (parallel refreshes) gets fresh tokens too; used again later, it ends the connection. A refresh with a lower \`scope\` narrows the access token only. Revocation (RFC 7009): ${base}/oauth/revoke.
- Scope words other than \`read\`, \`write\` and \`trusted\` (\`openid\`, \`offline_access\`…) are ignored; a client that registered a \`scope\` is never granted more.

On the consent page the person types a **connect code**: they send \`/connect\` to ${IDENTITY.title} in their chat (Telegram, Slack, \`exhale chat\`) and get 8 characters, valid 10 minutes, used once.
They see the app's name, the host it returns to, and choose the scope (never more than the app asked for). They are told in chat when an app was connected, with a Disconnect button;
\`list_connected_apps\` and \`disconnect_app\` list and end connections.

## Getting an agent token

On the machine that runs ${IDENTITY.title}:

    exhale token create --name "Claude Desktop" --scope read

The token is shown once. Only its SHA-256 hash is stored, with its first characters so you can tell tokens apart.
An agent acts as the member who created the token and sees exactly what that member sees.
Tokens are listed with \`list_tokens\` and revoked with \`revoke_token\` (or the \`exhale token\` commands);
a revoked token is refused from its next request on. Last use is recorded.

## Scopes

| Scope | What the agent may do |
|---|---|
| \`read\` | Read tools, resources and prompts only. |
| \`write\` | Also change things. A destructive change, or one that moves money, waits for the person's confirmation. |
| \`trusted\` | Change things without confirmation. |

## Confirmation

Without a trusted token, a destructive or money-moving change is confirmed by the person. Clients that support
elicitation ask them directly. Others get a preview (isError, with \`confirmation_id\`): nothing is applied until
the agent calls the \`confirm\` tool with that id. A confirmation is bound to the token, the tool and its arguments,
applies once, exactly as previewed (if the records changed since, nothing is applied and a new preview is needed),
and expires after 10 minutes.

Every change appears in the activity list (\`list_activity\`) with the client's name and the token, and can be undone (\`undo\`).

## Errors

- \`401\` with \`WWW-Authenticate: Bearer realm="exhale", resource_metadata="…", scope="read write"\`: no token, or an unknown, expired or revoked one, or one for another server (\`error="invalid_token"\`).
- \`403\` with \`error="insufficient_scope", scope="write"\` (or \`trusted\`): the tool needs a token with more scope.
- A failing tool returns a result with \`isError\` and a sentence saying what to fix.

## Local use

\`exhale mcp\` serves the same tools over stdio, as the member whose token is given with \`--token\` or \`EXHALE_TOKEN\`,
or as the household's owner when run on the machine that holds the database.
`;
}

function llmsTxt(core: Core, base: string): string {
  const tools = publicTools(core)
    .map((op) => `- \`${op.name}\`${accessNote(op)}: ${firstSentence(op.description)}`)
    .join('\n');
  const prompts = PROMPTS.map(
    (p) => `- \`${p.name}\`: ${t('en', `mcp.prompt.${p.name}.description`)}`,
  ).join('\n');
  const resources = [
    `- \`${CONTEXT_URI}\`: the live briefing; start here.`,
    `- \`${HOUSEHOLD_URI}\`: the household.`,
    ...ENTITIES.map((e) => `- \`exhale://${e.path}/{id}\`: ${e.description}`),
  ].join('\n');
  return `# ${IDENTITY.title}

> ${IDENTITY.description}

Connect an MCP client to ${base}/mcp (Streamable HTTP): with OAuth (authorization server ${base}; the person confirms with a /connect code from their chat), or with "Authorization: Bearer <token>"; see ${base}/auth.md for OAuth, tokens, scopes and confirmation. On the machine that runs it, \`exhale mcp\` serves the same over stdio.

## Docs

- [Authentication](${base}/auth.md): OAuth, tokens, scopes, confirmation and errors
- [OAuth protected resource metadata](${resourceMetadataUrl(base)})
- [MCP Server Card](${base}/mcp/server-card): identity, endpoint, tools, prompts
- [AI catalog](${base}/.well-known/ai-catalog.json)
- [API catalog](${base}/.well-known/api-catalog)

## Tools

${tools}

## Resources

${resources}

## Prompts

${prompts}
`;
}

function doc(body: string, type: string): Doc {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` };
}

function build(core: Core, base: string): Record<DocName, Doc> {
  return {
    serverCard: doc(JSON.stringify(serverCard(core, base)), CARD_TYPE),
    aiCatalog: doc(JSON.stringify(aiCatalog(base)), 'application/json'),
    apiCatalog: doc(
      JSON.stringify(apiCatalog(base)),
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    ),
    authMd: doc(authMd(base), 'text/markdown; charset=utf-8'),
    llmsTxt: doc(llmsTxt(core, base), 'text/plain; charset=utf-8'),
    icon: doc(ICON_SVG, 'image/svg+xml'),
  };
}

const BY_PATH = new Map<string, DocName>(
  (Object.entries(DISCOVERY_PATHS) as Array<[DocName, readonly string[]]>).flatMap(
    ([name, paths]) => paths.map((p) => [p, name] as const),
  ),
);

export function isDiscoveryPath(pathname: string): boolean {
  return BY_PATH.has(pathname);
}

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

/**
 * Serves the discovery documents: GET and HEAD, cacheable by anyone, with an ETag and 304 on
 * If-None-Match. Documents are built once per base URL.
 */
export function createDiscovery(
  core: Core,
): (request: Request, pathname: string, base: string) => Response | null {
  const built = new Map<string, Record<DocName, Doc>>();
  return (request, pathname, base) => {
    const name = BY_PATH.get(pathname);
    if (!name) return null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    let docs = built.get(base);
    if (!docs) {
      docs = build(core, base);
      if (built.size > 16) built.clear();
      built.set(base, docs);
    }
    const found = docs[name];
    const headers = {
      etag: found.etag,
      'cache-control': 'public, max-age=300',
      'access-control-allow-origin': '*',
      link: `<${base}/.well-known/api-catalog>; rel="api-catalog"`,
      vary: 'Accept-Encoding',
    };
    if (matches(request.headers.get('if-none-match'), found.etag))
      return new Response(null, { status: 304, headers });
    return new Response(request.method === 'HEAD' ? null : found.body, {
      status: 200,
      headers: { ...headers, 'content-type': found.type },
    });
  };
}
