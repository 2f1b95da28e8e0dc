// Issue 21, item 5: the short form of `npm run campaign -- xml` in npm test. Every case (bombs, XXE,
// external DTDs, parameter entities, XInclude, deep nesting, a big text node, UTF-16 and UTF-7) on
// two entry points, each in a process of its own: the UBL reader (what Peppol inbound reads with) and
// the SMP client fed by a hostile SMP. The campaign runs the same cases on all six entry points.
import { describeDatabaseFree } from '../support/database-free.ts';
import { expect } from 'chai';
import { attackXml, refused } from '../../campaigns/xml/index.ts';

describeDatabaseFree('xml: bombs and XXE on the entry points (short xml campaign)', function () {
  this.timeout(0);

  it('refuses every case within 1 s and 64 MB, and reads no canary file and calls no canary server', async () => {
    const results = await attackXml({ entries: ['ubl-reader', 'smp'] });
    expect(results).to.have.length(24);
    const summary = (r: (typeof results)[number]) => `${r.entry} / ${r.case}: ${r.code}, ${r.ms.toFixed(0)} ms, ${r.growthMb.toFixed(1)} MB, reads ${r.fileReads}, hits ${r.httpHits}`;
    expect(results.filter((r) => !refused(r)).map(summary), 'accepted').to.deep.equal([]);
    expect(results.filter((r) => r.fileReads > 0 || r.httpHits > 0).map(summary), 'canaries').to.deep.equal([]);
    expect(results.filter((r) => r.ms > 1000 || r.growthMb > 64).map(summary), 'time or memory').to.deep.equal([]);
    // the refusals name what was wrong, not a generic failure
    const byCase = (name: string) => results.filter((r) => r.case === name && r.entry === 'UBL reader').map((r) => r.code);
    expect(byCase('billion laughs')).to.deep.equal(['XML-DOCTYPE']);
    expect(byCase('XInclude')).to.deep.equal(['XML-XINCLUDE']);
    expect(byCase('10 MB text node')).to.deep.equal(['XML-TOO-LARGE']);
    expect(byCase('declared UTF-7 (external entity)')).to.deep.equal(['XML-ENCODING-UNSUPPORTED']);
  });
});
