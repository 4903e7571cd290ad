import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import type { Row } from '../../store/tracked.ts';
import { requireOwned } from '../shared/context.ts';
import { Id, ShortName, Tag } from '../../domain/schemas.ts';
import { assertNameFree } from './_lib/names.ts';
import { applyPatch } from './_lib/patch.ts';
import { loadTag } from './_lib/views.ts';

export const renameTag = defineOp({
  name: 'rename_tag',
  title: 'Rename a tag',
  description:
    'Renames a tag on every subscription carrying it. A name another tag has is refused.',
  input: z.object({
    id: Id,
    name: ShortName,
  }),
  output: Tag,
  effect: 'write',
  idempotent: true,
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    const current = await requireOwned<Row>(ctx, 'tags', 'tag', input.id, { forUpdate: true });
    await assertNameFree(ctx, 'tags', input.name, input.id);
    const row = await applyPatch(ctx, 'tags', current, { name: input.name });
    return loadTag(ctx, row);
  },
});
