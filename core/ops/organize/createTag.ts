import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { household, nowIso } from '../shared/context.ts';
import { ShortName, Tag } from '../../domain/schemas.ts';
import { assertNameFree } from './_lib/names.ts';
import { tagView } from './_lib/views.ts';

export const createTag = defineOp({
  name: 'create_tag',
  title: 'Create a tag',
  description:
    'Creates a tag, a free label such as "work" (a new tag name given to a subscription creates one too). Names are unique regardless of case.',
  input: z.object({ name: ShortName }),
  output: Tag,
  effect: 'write',
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    await assertNameFree(ctx, 'tags', input.name);
    const row = await ctx.tx.insert('tags', {
      id: ctx.newId('tag'),
      household_id: household(ctx).id,
      name: input.name,
      created_at: nowIso(ctx),
    });
    return tagView(row, new Map());
  },
});
