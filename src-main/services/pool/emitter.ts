/** A typed event emitter whose listeners cannot break the emitter: a throwing listener is logged and skipped. */
export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  constructor(private readonly onListenerError: (event: keyof Events, err: unknown) => void) {}

  /** Subscribes; returns the unsubscribe function. */
  on<E extends keyof Events>(event: E, listener: (payload: Events[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  emit<E extends keyof Events>(event: E, payload: Events[E]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (payload: Events[E]) => void)(payload);
      } catch (err) {
        this.onListenerError(event, err);
      }
    }
  }
}
