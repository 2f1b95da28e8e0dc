import { map, type Observable } from 'rxjs';
import { UPCASTERS, type Upcaster } from '../../../events/upcasters.ts';
import { EVENT_VERSIONS } from '../../../events/versions.ts';
import type {
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
  NewStream,
  Position,
  RecordedEvent,
  StreamHead,
  StreamWrite,
  StreamsAppendResult,
} from './port.ts';

/** The payload contracts a store reads and writes by: each type's current version, and the steps up to it. */
export interface EventContracts {
  /** each type's current payload version; a type not named is at version 1 */
  versions: Readonly<Record<string, number>>;
  /** `upcasters[type][n - 1]`: version n to n + 1 */
  upcasters: Readonly<Record<string, readonly Upcaster[] | undefined>>;
}

/** The contracts of `events/`: what every store of this service reads by. */
export const EVENT_CONTRACTS: EventContracts = { versions: EVENT_VERSIONS, upcasters: UPCASTERS };

/**
 * An event's payload version, from its metadata (`version`). Absent is version 1: every event
 * stored before a type first changed, and every event of a type still at version 1, carries none,
 * so the stored format of those events stays what it always was.
 */
export function payloadVersion(event: { type: string; metadata: EventMetadata }): number {
  const version = event.metadata.version;
  if (version === undefined) return 1;
  if (typeof version === 'number' && Number.isSafeInteger(version) && version >= 1) return version;
  throw new Error(`${event.type}: payload version ${JSON.stringify(version)} in its metadata is not a version`);
}

interface Changed {
  current: number;
  steps: readonly Upcaster[];
}

/**
 * Brings stored events up to their type's current payload version, and marks new events of a
 * changed type with it. Only types above version 1 are kept: an event of any other type costs
 * one failed map lookup, and one at its current version a version check, neither a copy.
 */
export class Upcasting {
  private readonly changed = new Map<string, Changed>();

  constructor(contracts: EventContracts) {
    for (const [type, current] of Object.entries(contracts.versions)) {
      if (current === 1) continue;
      const steps = contracts.upcasters[type] ?? [];
      if (!Number.isSafeInteger(current) || current < 1 || steps.length !== current - 1) {
        throw new Error(`${type} is at version ${current} but has ${steps.length} upcasters (it needs one per older version)`);
      }
      this.changed.set(type, { current, steps });
    }
  }

  /** No type has changed: nothing to do on any read or append. */
  get idle(): boolean {
    return this.changed.size === 0;
  }

  /** The event as its type's current version has it: the same object when it already is. */
  upcast(event: RecordedEvent): RecordedEvent {
    const changed = this.changed.get(event.type);
    if (!changed) return event;
    const version = payloadVersion(event);
    if (version === changed.current) return event;
    if (version > changed.current) {
      // written by a newer release: this one cannot read it, and must not guess
      throw new Error(`${event.type} at ${event.streamId}@${event.revision} is version ${version}; this release reads it up to version ${changed.current}`);
    }
    let data = event.data;
    for (let step = version - 1; step < changed.current - 1; step++) data = (changed.steps[step] as Upcaster)(data);
    return { ...event, data, metadata: { ...event.metadata, version: changed.current } };
  }

  /** `metadataOf` and the changed types among `types`: upcasting reads their payload version from the metadata. */
  withVersionsOf(metadataOf: readonly string[], types: readonly string[]): readonly string[] {
    const changed = types.filter((type) => this.changed.has(type) && !metadataOf.includes(type));
    return changed.length === 0 ? metadataOf : [...metadataOf, ...changed];
  }

  /** Upcasts a page in place (a store's answer belongs to its caller); `only`: just these types. */
  upcastAll(events: RecordedEvent[], only?: readonly string[]): RecordedEvent[] {
    if (this.idle) return events;
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as RecordedEvent;
      if (only && !only.includes(event.type)) continue;
      events[i] = this.upcast(event);
    }
    return events;
  }

  /** A new event of a changed type, marked with its current version (unless its writer named one). */
  stamp(event: NewEvent): NewEvent {
    const changed = this.changed.get(event.type);
    if (!changed || event.metadata.version !== undefined) return event;
    return { ...event, metadata: { ...event.metadata, version: changed.current } };
  }

  stampAll(events: NewEvent[]): NewEvent[] {
    return this.idle ? events : events.map((e) => this.stamp(e));
  }
}

/**
 * The store as its readers see it: every event it gives (a stream read, from a revision too; a
 * read of all events, of some types or with `onlyDataOf`; a subscription) is at its type's current
 * payload version, so no decider, projector, reactor or other reader ever meets an old shape; and
 * every event it writes carries the version it was written at. Each adapter's factory returns its
 * store through this, so an adapter has nothing of its own to remember; the contract suite
 * (test/contract) checks every adapter's read paths.
 *
 * With `onlyDataOf`, only the events of those types are upcast: the others may come without data.
 */
export function upcastOnRead(store: EventStore, contracts: EventContracts = EVENT_CONTRACTS): EventStore {
  return new UpcastingEventStore(store, new Upcasting(contracts));
}

class UpcastingEventStore implements EventStore {
  readonly appended$: Observable<Position>;
  readonly appendedTypes$: EventStore['appendedTypes$'];
  readonly snapshots: EventStore['snapshots'];
  readonly readAllOfTypes?: EventStore['readAllOfTypes'];

  constructor(
    private readonly inner: EventStore,
    private readonly upcasting: Upcasting,
  ) {
    this.appended$ = inner.appended$;
    this.appendedTypes$ = inner.appendedTypes$;
    this.snapshots = inner.snapshots;
    const ofTypes = inner.readAllOfTypes?.bind(inner);
    if (ofTypes) {
      this.readAllOfTypes = async (after, limit, types, metadataOf) =>
        this.upcasting.upcastAll(await ofTypes(after, limit, types, metadataOf && this.upcasting.withVersionsOf(metadataOf, types)));
    }
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.inner.append(streamId, this.upcasting.stampAll(events), expected);
  }

  appendToNewStreams(streams: readonly NewStream[]): Promise<AppendResult[]> {
    return this.inner.appendToNewStreams(this.upcasting.idle ? streams : streams.map((s) => ({ ...s, events: this.upcasting.stampAll(s.events) })));
  }

  appendToStreams(writes: readonly StreamWrite[]): Promise<StreamsAppendResult> {
    return this.inner.appendToStreams(this.upcasting.idle ? writes : writes.map((w) => ({ ...w, events: this.upcasting.stampAll(w.events) })));
  }

  async readStream(streamId: string, from?: number): Promise<RecordedEvent[]> {
    return this.upcasting.upcastAll(await this.inner.readStream(streamId, from));
  }

  streamHead(streamId: string): Promise<StreamHead | null> {
    return this.inner.streamHead(streamId);
  }

  async readAll(after: Position, limit: number, onlyDataOf?: readonly string[]): Promise<RecordedEvent[]> {
    return this.upcasting.upcastAll(await this.inner.readAll(after, limit, onlyDataOf), onlyDataOf);
  }

  subscribe(after: Position): Observable<RecordedEvent> {
    const events = this.inner.subscribe(after);
    return this.upcasting.idle ? events : events.pipe(map((e) => this.upcasting.upcast(e)));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
