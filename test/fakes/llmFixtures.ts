import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { parseYaml, type Yaml } from './llmYaml.ts';

/**
 * The recorded LLM streams of `../shared/fixtures/llm/` (read in place, never copied into the
 * repository), turned into HTTP exchanges a fake server can replay. See that folder's INDEX.md for
 * the formats; EXHALE_LLM_FIXTURES points elsewhere when the checkout lives somewhere else. A fresh
 * clone has none: tests that need them ask `fixtureReplay()` whether to run.
 */
export const FIXTURE_ROOT =
  process.env.EXHALE_LLM_FIXTURES?.trim() ||
  path.resolve(import.meta.dirname, '../../../shared/fixtures/llm');

export type Protocol = 'anthropic' | 'openai';

/** One recorded HTTP answer. */
export interface Exchange {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The request body the recording was made with, when the fixture has it. */
  request?: unknown;
}

export interface Fixture {
  name: string;
  protocol: Protocol;
  exchanges: Exchange[];
}

const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };

const dirOf = (protocol: Protocol): string =>
  path.join(FIXTURE_ROOT, protocol === 'anthropic' ? 'anthropic' : 'openai-compat');

/** Whether the recorded streams are on this machine: a fresh clone has no ../shared beside it. */
export const FIXTURES_AVAILABLE = existsSync(dirOf('anthropic')) && existsSync(dirOf('openai'));

/** The line printed when replay is skipped, so a skip is seen rather than mistaken for a pass. */
export const FIXTURES_SKIPPED =
  'LLM fixture replay skipped: ../shared/fixtures/llm not found; set EXHALE_LLM_FIXTURES';

const onCi = (): boolean => {
  const ci = process.env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
};

/**
 * Whether tests that need recorded streams run here: yes when the fixtures are available; no on a
 * machine without them; on CI (`CI` set) missing fixtures throw, failing the test file, because CI
 * must replay every fixture. Call it at the top of every test file that loads fixtures.
 */
export function fixtureReplay(): boolean {
  if (FIXTURES_AVAILABLE) return true;
  if (onCi())
    throw new Error(
      `LLM fixtures not found at ${FIXTURE_ROOT}: CI must replay them (check out ../shared or set EXHALE_LLM_FIXTURES)`,
    );
  return false;
}

export function fixtureNames(protocol: Protocol): string[] {
  const dir = dirOf(protocol);
  if (!existsSync(dir))
    throw new Error(`LLM fixtures not found at ${dir} (set EXHALE_LLM_FIXTURES)`);
  return readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .sort();
}

export function loadFixture(protocol: Protocol, name: string): Fixture {
  const file = path.join(dirOf(protocol), name);
  const text = readFileSync(file, 'utf8');
  return { name, protocol, exchanges: exchangesOf(protocol, name, text) };
}

function exchangesOf(protocol: Protocol, name: string, text: string): Exchange[] {
  if (name.endsWith('.chunks.txt')) {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    const body =
      protocol === 'anthropic'
        ? lines
            .map(
              (l) => `event: ${String((JSON.parse(l) as { type?: unknown }).type)}\ndata: ${l}\n\n`,
            )
            .join('')
        : `${lines.map((l) => `data: ${l}\n\n`).join('')}data: [DONE]\n\n`;
    return [{ status: 200, headers: SSE, body }];
  }
  if (name.endsWith('.txt') || name.endsWith('.sse'))
    return [{ status: 200, headers: SSE, body: text }];
  if (name.endsWith('.yaml')) return cassette(parseYaml(text));
  if (name.startsWith('anthropic-sdk-python-TestAsyncStream'))
    return recordedExchange(JSON.parse(text) as unknown[]);
  if (name.endsWith('.json')) {
    const status = name.includes('error') ? 400 : 200;
    return [{ status, headers: JSON_TYPE, body: text }];
  }
  throw new Error(`unknown fixture format: ${name}`);
}

function cassette(doc: Yaml): Exchange[] {
  const interactions = isMap(doc) && Array.isArray(doc.interactions) ? doc.interactions : [];
  return interactions.map((interaction) => {
    if (!isMap(interaction) || !isMap(interaction.response))
      throw new Error('a cassette interaction without a response');
    const response = interaction.response;
    const status =
      isMap(response.status) && typeof response.status.code === 'number'
        ? response.status.code
        : 200;
    const headers: Record<string, string> = {};
    if (isMap(response.headers)) {
      for (const [k, v] of Object.entries(response.headers)) {
        if (
          ['content-length', 'transfer-encoding', 'content-encoding', 'connection'].includes(
            k.toLowerCase(),
          )
        )
          continue;
        headers[k.toLowerCase()] = Array.isArray(v) ? v.map(String).join(', ') : String(v);
      }
    }
    let body: string;
    if (isMap(response.body) && typeof response.body.string === 'string')
      body = response.body.string;
    else if (response.parsed_body !== undefined) body = JSON.stringify(response.parsed_body);
    else body = '';
    const request = isMap(interaction.request) ? interaction.request.parsed_body : undefined;
    return { status, headers, body, request };
  });
}

function recordedExchange(items: unknown[]): Exchange[] {
  return items.map((item) => {
    const { request, response } = item as {
      request: { body?: unknown };
      response: { status_code: number; headers: Record<string, string>; body: unknown };
    };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(response.headers))
      if (!['content-length', 'transfer-encoding', 'connection'].includes(k)) headers[k] = v;
    const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
    return { status: response.status_code, headers, body, request: request.body };
  });
}

function isMap(v: Yaml | undefined): v is { [key: string]: Yaml } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
