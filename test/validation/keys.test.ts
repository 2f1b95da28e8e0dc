// The descendant-scan -> key() rewrite must only fire where it cannot change the result.
import { expect } from 'chai';
import { isNonPositional, rewriteDescendantScans } from '../../src/platform/validation/schematron/keys.ts';

const ns = (p: string): string | undefined => ({ cac: 'urn:cac', cbc: 'urn:cbc' })[p];
const rw = (e: string, minDepth = 0): string => rewriteDescendantScans(e, ns, minDepth);

describe('validation: key() rewrite of // scans', () => {
  it('rewrites absolute element and attribute scans, keeping boolean predicates and the rest of the path', () => {
    expect(rw("exists(//cac:TaxCategory[cbc:ID = 'S']/cbc:Percent)")).to.equal(
      "exists(key('skv:elements', 'TaxCategory')[namespace-uri() eq 'urn:cac'][cbc:ID = 'S']/cbc:Percent)",
    );
    expect(rw('not(//@schemeName)')).to.equal("not(key('skv:attributes', 'schemeName')[namespace-uri() eq ''])");
    expect(rw('(//cac:A | //cac:B)')).to.equal("(key('skv:elements', 'A')[namespace-uri() eq 'urn:cac'] | key('skv:elements', 'B')[namespace-uri() eq 'urn:cac'])");
  });

  it('leaves positional or unknown predicates, relative scans, wildcards, literals and unknown prefixes alone', () => {
    for (const e of ['//cac:X[1]', '//cac:X[$n]', '//cac:X[position() = 1]', 'a//cac:X', '//*[not(*)]', "'//cac:X'", '//zz:X', '//(cac:A|cac:B)/cbc:C']) {
      expect(rw(e), e).to.equal(e);
    }
  });

  it('in match patterns rewrites only inside predicates', () => {
    expect(rw('//cac:TaxCategory[//cac:Party/cbc:X]', 1)).to.equal("//cac:TaxCategory[key('skv:elements', 'Party')[namespace-uri() eq 'urn:cac']/cbc:X]");
  });

  it('classifies predicates', () => {
    expect(isNonPositional("cbc:ID = 'S'")).to.equal(true);
    expect(isNonPositional('not(cbc:ID)')).to.equal(true);
    expect(isNonPositional('cac:TaxScheme/cbc:ID')).to.equal(true);
    expect(isNonPositional('1')).to.equal(false);
    expect(isNonPositional('$v')).to.equal(false);
    expect(isNonPositional('last()')).to.equal(false);
  });
});
