import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { household } from '../shared/context.ts';
import { Household } from '../../domain/schemas.ts';

export const getHousehold = defineOp({
  name: 'get_household',
  title: 'Get the household',
  description:
    'Returns the household: its name, currency (the one totals are in), time zone and language.',
  input: z.object({}),
  output: Household,
  effect: 'read',
  idempotent: true,
  async run(ctx) {
    return household(ctx);
  },
});
