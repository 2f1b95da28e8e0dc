// The memo of completed Idempotency-Keys (src/modules/idempotency/answers.ts): a repeat is
// answered without reading the key's stream, and still exactly as the stream would answer it.
import { expect } from 'chai';
import { RETENTION_MS } from '../../commands/idempotency/decider.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { EXPIRY_MARGIN_MS } from '../../src/modules/idempotency/answers.ts';
import { runIdempotently, type Outcome } from '../../src/modules/idempotency/idempotency.ts';
import type { EventStore } from '../../src/platform/eventstore/index.ts';
import { randomIds } from '../../src/platform/ports/ids.ts';
import { freshEventStore } from '../support/database.ts';

const quiet = { warn: () => undefined };
const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

describe('Idempotency-Key: completed keys answered from memory', function () {
  this.timeout(120_000);
  let close: () => Promise<void> = async () => undefined;
  let store: EventStore;
  let n = 0;

  before(async () => {
    ({ store, close } = await freshEventStore());
  });
  after(() => close());

  /** An instance of the service: its own view of the store (so its own memo), counting the streams it reads, on its own clock. */
  function instance(start: Date) {
    const reads: string[] = [];
    const own = Object.assign(Object.create(store) as EventStore, {
      readStream: (streamId: string) => (reads.push(streamId), store.readStream(streamId)),
    });
    const clock = { at: start, now: () => clock.at };
    let ran = 0;
    const send = (key: string, fingerprint: string): Promise<Outcome<string>> =>
      runIdempotently<string>({ store: own, ids: randomIds, clock }, {
        scope: 'memo-test', key, operation: 'send', fingerprint, requestId: `r-${++n}`, metadata: {}, log: quiet,
      }, async () => {
        ran++;
        return { result: `made ${fingerprint}`, record: { status: 202, body: { made: fingerprint, n: ran }, headers: {}, withheld: [] } };
      }, { seedResourceId: false });
    return { reads, clock, send, ran: () => ran };
  }

  it('a repeat, and another body under the key, are decided from memory once the key was read completed', async () => {
    const key = `k-${++n}`;
    const a = instance(new Date());
    expect(await a.send(key, 'body-1')).to.deep.include({ kind: 'ran' });
    const first = await a.send(key, 'body-1'); // read from the store: completed, so kept
    expect(first).to.deep.equal({ kind: 'replayed', answer: { status: 202, body: { made: 'body-1', n: 1 }, headers: {}, withheld: [] } });
    const readsBefore = a.reads.length;
    for (let i = 0; i < 5; i++) expect(await a.send(key, 'body-1')).to.deep.equal(first);
    const conflict = await refusal(a.send(key, 'body-2'));
    expect(conflict).to.be.instanceOf(DomainError);
    expect((conflict as DomainError).code).to.equal('idempotency_key_reused');
    expect(a.reads.length).to.equal(readsBefore);
    expect(a.ran()).to.equal(1);
  });

  it('a replayed answer is a copy: changing it changes nothing kept', async () => {
    const key = `k-${++n}`;
    const a = instance(new Date());
    await a.send(key, 'body-1');
    await a.send(key, 'body-1');
    const replayed = await a.send(key, 'body-1');
    if (replayed.kind !== 'replayed') throw new Error('not a replay');
    (replayed.answer.body as { made: string }).made = 'changed';
    const again = await a.send(key, 'body-1');
    expect(again.kind === 'replayed' && again.answer.body).to.deep.equal({ made: 'body-1', n: 1 });
  });

  it('another instance answers from the store, the same answer', async () => {
    const key = `k-${++n}`;
    const a = instance(new Date());
    const b = instance(new Date());
    await a.send(key, 'body-1');
    const fromA = await a.send(key, 'body-1');
    const fromB = await b.send(key, 'body-1');
    expect(b.reads).to.include.members(a.reads.slice(0, 1));
    expect(fromB).to.deep.equal(fromA);
    expect(a.ran() + b.ran()).to.equal(1);
  });

  it('near the end of the retention the stream decides again; past it the key starts afresh, with any body', async () => {
    const key = `k-${++n}`;
    const started = new Date();
    const a = instance(started);
    await a.send(key, 'body-1');
    await a.send(key, 'body-1');
    const reads = a.reads.length;
    a.clock.at = new Date(started.getTime() + RETENTION_MS - EXPIRY_MARGIN_MS + 1);
    expect((await a.send(key, 'body-1')).kind).to.equal('replayed');
    expect(a.reads.length).to.equal(reads + 1); // read, not remembered
    a.clock.at = new Date(started.getTime() + RETENTION_MS + 1);
    expect(await a.send(key, 'body-2')).to.deep.equal({ kind: 'ran', result: 'made body-2' });
    expect(a.ran()).to.equal(2);
  });
});
