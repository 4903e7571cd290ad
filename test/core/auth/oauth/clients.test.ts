import { describe, expect, it } from 'vitest';

import { displayName } from '../../../../core/auth/oauth/clients.ts';

describe("a client's name as people are shown it", () => {
  it('drops bidi controls and invisible format characters, which could reorder or hide the words around it', () => {
    expect(displayName('Acme\u202Eevil\u202C')).toBe('Acmeevil');
    expect(displayName('\u2066Claude\u2069\u200E\u200F\u061C')).toBe('Claude');
    expect(displayName('Cla\u200Bude\uFEFF\u2060')).toBe('Claude');
  });

  it('makes line breaks and control characters one space, and trims', () => {
    expect(displayName('  Claude\n\r\tDesktop\u2028\u0007 ')).toBe('Claude Desktop');
  });

  it('keeps letters of every script and the joiner of emoji sequences', () => {
    expect(displayName('تطبيق 2')).toBe('تطبيق 2');
    expect(displayName('Ñandú 👩\u200D💻')).toBe('Ñandú 👩\u200D💻');
  });

  it('is null when nothing is left to show', () => {
    expect(displayName('\u202E\u202C \n')).toBeNull();
    expect(displayName(null)).toBeNull();
  });
});
