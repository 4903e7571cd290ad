import { PassThrough } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { askChoice, parseChoice } from '../../bot/importChoice.ts';

describe('parseChoice', () => {
  it.each([
    ['', { kind: 'ticked' }],
    ['all', { kind: 'ticked' }],
    ['todas', { kind: 'ticked' }],
    ['none', { kind: 'none' }],
    ['Ninguna', { kind: 'none' }],
    ['nada', { kind: 'none' }],
    ['1 3', { kind: 'numbers', numbers: [1, 3] }],
    ['1,3', { kind: 'numbers', numbers: [1, 3] }],
    ['abc', null],
    ['4', null],
    ['1 x', null],
    ['1.5', null],
    ['0', null],
  ] as const)('%j is %j among 1–3', (answer, choice) => {
    expect(parseChoice(answer, [1, 2, 3])).toEqual(choice);
  });
});

describe('askChoice', () => {
  const run = async (typed: string) => {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (c: Buffer) => (written += c.toString()));
    input.end(typed);
    const choice = await askChoice(input, output, [1, 2], 'Which?', (a) => `No "${a}". Again?`);
    return { choice, written };
  };

  it('asks again after an answer it does not accept, saying so, until one it does', async () => {
    expect(await run('abc\n7\n2\n')).toEqual({
      choice: { kind: 'numbers', numbers: [2] },
      written: 'Which? No "abc". Again? No "7". Again? ',
    });
  });

  it('cancels at the end of input, or on an empty answer once asked again', async () => {
    expect((await run('')).choice).toBeNull();
    expect((await run('abc')).choice).toBeNull();
    expect((await run('abc\n\n1\n')).choice).toBeNull();
  });
});
