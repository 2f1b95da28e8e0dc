import { expect } from 'chai';
import { currentEntry, terminatedBy } from './current.ts';

const TODAY = '2026-05-20';

describe('lookup: time-versioned register entries', () => {
  it('takes the entry in force today, not an older closed one', () => {
    const names = [
      { value: 'Stará firma s.r.o.', validFrom: '2001-01-01', validTo: '2019-12-31' },
      { value: 'Nová firma s.r.o.', validFrom: '2020-01-01' },
    ];
    expect(currentEntry(names, TODAY)?.value).to.equal('Nová firma s.r.o.');
  });

  it('of two entries in force, the one that started last (a change takes over on its first day)', () => {
    const names = [
      { value: 'Nová', validFrom: '2026-05-20' },
      { value: 'Stará', validFrom: '2010-03-01', validTo: '2026-05-20' },
    ];
    expect(currentEntry(names, TODAY)?.value).to.equal('Nová');
  });

  it('ignores an entry that starts in the future', () => {
    const seats = [{ value: 'Košice', validFrom: '2015-01-01' }, { value: 'Prešov', validFrom: '2027-01-01' }];
    expect(currentEntry(seats, TODAY)?.value).to.equal('Košice');
  });

  it('a terminated company, whose entries are all closed, keeps its last one', () => {
    const names = [
      { value: 'Prvý názov', validFrom: '2000-01-01', validTo: '2010-01-01' },
      { value: 'Posledný názov', validFrom: '2010-01-02', validTo: '2021-06-30' },
    ];
    expect(currentEntry(names, TODAY)?.value).to.equal('Posledný názov');
  });

  it('an entry without dates holds; none at all is null', () => {
    expect(currentEntry([{ value: 'x' } as { value: string; validFrom?: string }], TODAY)?.value).to.equal('x');
    expect(currentEntry([], TODAY)).to.equal(null);
    expect(currentEntry(undefined, TODAY)).to.equal(null);
  });

  it('reads timestamps by their day', () =>
    expect(currentEntry([{ value: 'a', validFrom: '2026-05-20T00:00:00Z' }], TODAY)?.value).to.equal('a'));

  it('a company is terminated from its termination day on, not before', () => {
    expect(terminatedBy('2026-05-20', TODAY)).to.equal(true);
    expect(terminatedBy('2020-01-31', TODAY)).to.equal(true);
    expect(terminatedBy('2026-05-21', TODAY)).to.equal(false);
    expect(terminatedBy(null, TODAY)).to.equal(false);
  });
});
