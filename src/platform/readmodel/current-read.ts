import { DomainError } from '../../../commands/shared/domain-error.ts';
import type { Core } from '../core.ts';
import type { Position } from '../eventstore/port.ts';

/** One resource's read that must show its stream as it stands. */
interface CurrentRead<T> {
  /** the resource's event stream */
  stream: string;
  /** the read models the read comes from */
  projectors: readonly string[];
  /** reads them (the caller's scope applied) */
  read(): Promise<T>;
  /**
   * The version of what `read` found (the stream revision it shows), undefined when it found
   * nothing. Without it (a read whose rows do not carry the stream's revision, or that joins
   * several read models), the read waits until its projectors passed the stream's last event
   * before it reads, instead of reading beside the lookup.
   */
  versionOf?(found: T): number | undefined;
  /**
   * Anything found is current enough: the stream's later events are not the caller's to wait for
   * (a SAPI document's Peppol and FS legs come from reactors). The read comes first, and only a
   * read that finds nothing looks up the stream and waits for it.
   */
  foundIsCurrent?: boolean;
  /**
   * Whether the caller may see the stream: asked only before refusing a resource the read found
   * nothing of, so that a 503 never tells another organisation that it exists (it gets the 404).
   */
  visible(): Promise<boolean>;
  /** a command's own append; without it the stream's last event is looked up */
  written?: { position: Position; version: number };
  /** named in the refusal */
  resource: string;
}

/**
 * Read-your-writes on the read side. The command that wrote waits (bounded) until the read models
 * show its append; when several instances share the database, a lease holder that was just killed
 * can leave the new one catching up past that bound, and the command answers anyway (its body
 * comes from the decided events). So a read of one resource looks up its stream's last event
 * (one indexed lookup, made beside the read itself) and, when the read model does not show it
 * yet, waits for that position too, whichever instance wrote it or projects it. A read model
 * still behind after READ_YOUR_WRITES_TIMEOUT_MS is refused honestly (503 `read_model_behind`,
 * retry_after) to whoever may see the resource, rather than answered with a stale version or a 404.
 */
export async function readCurrent<T>(deps: Pick<Core, 'store' | 'projections' | 'config'>, read: CurrentRead<T>): Promise<T> {
  if (read.foundIsCurrent) {
    const first = await read.read();
    if (first !== undefined && first !== null) return first;
  }
  let target = read.written;
  if (!target && read.versionOf) {
    const [head, first] = await Promise.all([deps.store.streamHead(read.stream), read.read()]);
    // the usual case: what was read already shows the last event (or there is no stream)
    if (!head || (read.versionOf(first) ?? -1) >= head.revision) return first;
    target = { position: head.position, version: head.revision };
  }
  if (!target) {
    const head = await deps.store.streamHead(read.stream);
    if (!head) return read.read();
    target = { position: head.position, version: head.revision };
  }
  const shown = await deps.projections.caughtUp(target.position, deps.config.readYourWritesTimeoutMs, read.projectors);
  const found = await read.read();
  const version = read.versionOf?.(found);
  if (shown || (version ?? -1) >= target.version) return found;
  if (version !== undefined || (await read.visible())) throw readModelBehind(read.resource, target.version);
  return found;
}

/** The read model has not shown a resource's last change within the read-your-writes bound. */
function readModelBehind(resource: string, version: number): DomainError {
  return new DomainError('read_model_behind', `this ${resource} is stored at version ${version}, and its read model did not show that version within the read-your-writes bound`, {
    version, retry_after: 1,
    hint: 'Nothing is lost: the change is stored. The read model is catching up (for example after a service instance went down); read it again after retry_after seconds.',
  });
}
