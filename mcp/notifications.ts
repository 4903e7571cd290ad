import { CONTEXT_URI, ENTITY_TABLES, HOUSEHOLD_URI } from './resources.ts';
import type { ChangeEvent } from '../core/index.ts';

export interface ChangeNotice {
  /** Resources whose content changed. */
  updated: string[];
  /** Whether the list of resources may have changed (an entity was added, renamed or removed). */
  listChanged: boolean;
}

/** The resource notifications one committed change causes: the briefing always, and each entity touched. */
export function noticeFor(event: ChangeEvent): ChangeNotice {
  const updated = new Set<string>([CONTEXT_URI]);
  let listChanged = false;
  for (const entity of event.entities) {
    if (entity.table === 'households') updated.add(HOUSEHOLD_URI);
    const path = ENTITY_TABLES[entity.table];
    if (path) {
      updated.add(`exhale://${path}/${entity.id}`);
      listChanged = true;
    }
  }
  return { updated: [...updated], listChanged };
}
