#!/usr/bin/env node
// The `exhale` command. Exhale is written in TypeScript: `npm install` compiles it to dist/ and
// bundles it into dist/bundle/ (scripts/postinstall.mjs), and this runs that build while it
// matches the sources exactly; when it is missing or older than any source file (a developer
// editing code), or EXHALE_FROM_SOURCE=1 (the tests), it runs the sources through tsx instead, so
// stale JavaScript never runs.
import process from 'node:process';

import { BUILD_ENTRY, buildExists, buildIsFresh } from '../scripts/serverBuild.mjs';

const fromSource = process.env.EXHALE_FROM_SOURCE === '1';
if (!fromSource && buildIsFresh()) {
  await import(`../dist/${BUILD_ENTRY}`);
} else {
  if (!fromSource && buildExists())
    process.stderr.write(
      'exhale: dist/ is older than the sources, running from source (npm run build refreshes it)\n',
    );
  const { register } = await import('tsx/esm/api');
  register();
  await import('../bot/cli.ts');
}
