#!/usr/bin/env node
// The `exhale` command. Exhale is written in TypeScript and runs from source through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../bot/cli.ts');
