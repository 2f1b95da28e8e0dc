import type { Known } from './decide-and-append.ts';

/** A held stream: its state at a revision, and what its holder keeps beside it (the bytes it counts against the bound). */
export interface Held<State, Extra> extends Known<State> {
  extra: Extra;
  bytes: number;
}

/**
 * The states this process's own writers left on streams, so that the next step on a stream (another
 * reaction, a scheduled step) decides on it without reading the stream again. A held state is a
 * true past state of its stream, never ahead of it: only a successful append or a read puts one
 * here. It may be behind (another instance wrote, or a writer that does not hold): whoever decides
 * on it appends at its revision (OnKnown), so a stale state shows as a conflict and the stream is
 * read then. Bounded by count and by bytes; the least recently kept goes first.
 */
export class HeldStates<State, Extra> {
  private readonly held = new Map<string, Held<State, Extra>>();
  private bytes = 0;

  constructor(private readonly bounds: { entries: number; bytes: number }) {}

  get(streamId: string): Held<State, Extra> | undefined {
    return this.held.get(streamId);
  }

  /** Holds `known` with `extra` (weighing `bytes`), unless a later revision is held already. */
  keep(streamId: string, known: Known<State>, extra: Extra, bytes: number): void {
    const before = this.held.get(streamId);
    if (before && before.revision > known.revision) return;
    if (bytes > this.bounds.bytes) {
      this.drop(streamId);
      return;
    }
    this.drop(streamId);
    this.held.set(streamId, { state: known.state, revision: known.revision, extra, bytes });
    this.bytes += bytes;
    for (const [oldest] of this.held) {
      if (this.held.size <= this.bounds.entries && this.bytes <= this.bounds.bytes) break;
      this.drop(oldest);
    }
  }

  /** A later state of a stream held already (its extra stays); a stream not held stays so. */
  advance(streamId: string, known: Known<State>): void {
    const before = this.held.get(streamId);
    if (before) this.keep(streamId, known, before.extra, before.bytes);
  }

  drop(streamId: string): void {
    const before = this.held.get(streamId);
    if (!before) return;
    this.held.delete(streamId);
    this.bytes -= before.bytes;
  }
}

/** One HeldStates per event store, made on first use: two services in one process (the tests' instances) each hold their own. */
export function heldPerStore<State, Extra>(bounds: { entries: number; bytes: number }): (store: object) => HeldStates<State, Extra> {
  const byStore = new WeakMap<object, HeldStates<State, Extra>>();
  return (store) => {
    let held = byStore.get(store);
    if (!held) byStore.set(store, (held = new HeldStates(bounds)));
    return held;
  };
}
