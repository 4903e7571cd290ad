/** A committed change, published after the transaction commits. */
export interface ChangeEvent {
  kind: 'changed';
  householdId: string;
  auditId: string;
  op: string;
  actor: { kind: string; memberId: string | null; channel: string; agentName?: string | undefined };
  /** Every row touched, as `table` and `id`. */
  entities: Array<{ table: string; id: string }>;
}

export type CoreEvent = ChangeEvent;

export type Listener = (event: CoreEvent) => void;

/** Publishes core events to in-process listeners; a throwing listener does not stop the others. */
export interface EventBus {
  publish(event: CoreEvent): void;
  subscribe(listener: Listener): () => void;
  /**
   * While this bus delivers the change events of every process on the database: a number that
   * changes at each (re)connection (events sent while it was away are lost); null otherwise.
   * Absent for a bus of one process. The read caches (readCache.ts) rely on it.
   */
  hearsEveryProcess?(): number | null;
}

export class InMemoryEventBus implements EventBus {
  private readonly listeners = new Set<Listener>();

  publish(event: CoreEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error('event listener failed', error);
      }
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
