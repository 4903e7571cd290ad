import { describe, expect, it } from 'vitest';

import { webBaseUrl } from '../../bot/config.ts';
import { servedMiniAppUrl } from '../../bot/telegram/index.ts';

describe('where the web app is', () => {
  it('Telegram opens the Mini App Exhale serves at <public URL>/app/, only over https', () => {
    expect(servedMiniAppUrl('https://exhale.example.com/')).toBe('https://exhale.example.com/app/');
    expect(servedMiniAppUrl('https://example.com/exhale')).toBe('https://example.com/exhale/app/');
    expect(servedMiniAppUrl('http://localhost:8080')).toBeUndefined();
    expect(servedMiniAppUrl(undefined)).toBeUndefined();
  });

  it('sign-in links point at the public URL, else at this machine', () => {
    const local = { EXHALE_PUBLIC_URL: undefined, EXHALE_HOST: '127.0.0.1', EXHALE_PORT: 8080 };
    expect(webBaseUrl(local)).toBe('http://127.0.0.1:8080');
    expect(webBaseUrl({ ...local, EXHALE_HOST: '0.0.0.0' })).toBe('http://localhost:8080');
    expect(webBaseUrl({ ...local, EXHALE_HOST: '::1' })).toBe('http://[::1]:8080');
    expect(webBaseUrl({ ...local, EXHALE_PUBLIC_URL: 'https://exhale.example.com/' })).toBe(
      'https://exhale.example.com',
    );
  });
});
