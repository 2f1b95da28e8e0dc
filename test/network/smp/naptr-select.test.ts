import { expect } from 'chai';
import { applyUnaptrRegexp, chooseSmpUrl, type NaptrRecord } from '../../../src/modules/delivery/peppol/smp/naptr-select.ts';

const record = (overrides: Partial<NaptrRecord>): NaptrRecord => ({
  flags: 'U',
  service: 'Meta:SMP',
  regexp: '!^.*$!https://smp.example.com!',
  replacement: '',
  order: 100,
  preference: 10,
  ...overrides,
});

describe('NAPTR record choice (U-NAPTR, Meta:SMP)', () => {
  it('takes the Meta:SMP U-record and its URL', () => {
    expect(chooseSmpUrl([record({})])).to.deep.equal({ kind: 'found', url: 'https://smp.example.com' });
  });

  it('orders by order, then preference, and ignores other services and non-terminal flags', () => {
    const records = [
      record({ order: 20, regexp: '!^.*$!https://late.example.com!' }),
      record({ order: 10, preference: 50, regexp: '!^.*$!https://second.example.com!' }),
      record({ order: 10, preference: 5, regexp: '!.*!https://first.example.com/smp/!' }),
      record({ order: 1, service: 'Meta:CPPA', regexp: '!^.*$!https://cppa.example.com!' }),
      record({ order: 1, flags: '', regexp: '!^.*$!https://not-terminal.example.com!' }),
    ];
    expect(chooseSmpUrl(records)).to.deep.equal({ kind: 'found', url: 'https://first.example.com/smp/' });
  });

  it('says none when no record is for an SMP', () => {
    expect(chooseSmpUrl([])).to.deep.equal({ kind: 'none' });
    expect(chooseSmpUrl([record({ service: 'Meta:CPPA' })])).to.deep.equal({ kind: 'none' });
  });

  it('falls back to the next record when one is unusable, and says unusable when all are', () => {
    expect(chooseSmpUrl([record({ order: 1, regexp: 'garbage' }), record({ order: 2 })])).to.deep.equal({ kind: 'found', url: 'https://smp.example.com' });
    expect(chooseSmpUrl([record({ regexp: '!^(.*)$!https://\\1!' })]).kind).to.equal('unusable');
  });

  for (const [regexp, why] of [
    ['', /no delimiter/],
    ['!^.*$!https://smp.example.com', /not !ere!replacement!flags/],
    ['!^abc$!https://smp.example.com!', /whole name/],
    ['!^(a+)+$!https://smp.example.com!', /whole name/],
    ['!^.*$!https://smp.example.com!x', /unknown flags/],
    ['!^.*$!ftp://smp.example.com!', /ftp: URL/],
    ['!^.*$!https://user:pw@smp.example.com!', /credentials/],
    ['!^.*$!not a url!', /does not give a URL/],
  ] as const) {
    it(`refuses the regexp ${JSON.stringify(regexp)} without running it`, () => {
      const applied = applyUnaptrRegexp(regexp);
      expect(applied.ok).to.equal(false);
      if (!applied.ok) expect(applied.reason).to.match(why);
    });
  }
});
