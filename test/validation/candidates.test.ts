// Which elements a pattern's rules can match decides whether the pattern may skip the tree walk.
import { expect } from 'chai';
import { candidateNames } from '../../src/platform/validation/schematron/candidates.ts';

const ns = (p: string): string | undefined => ({ cac: 'urn:cac', cbc: 'urn:cbc', ubl: 'urn:inv' })[p];

describe('validation: candidate elements of a match pattern', () => {
  it('collects the last-step names of every alternative, through predicates and parentheses', () => {
    expect(candidateNames('cac:InvoiceLine | cac:CreditNoteLine', ns)).to.deep.equal(['Q{urn:cac}InvoiceLine', 'Q{urn:cac}CreditNoteLine']);
    expect(candidateNames("/ubl:Invoice/cac:AllowanceCharge[cbc:ChargeIndicator = 'x|y']", ns)).to.deep.equal(['Q{urn:cac}AllowanceCharge']);
    expect(candidateNames('(/ubl:Invoice | //cac:Party/cbc:ID)[$x and a/b]', ns)).to.deep.equal(['Q{urn:inv}Invoice', 'Q{urn:cbc}ID']);
    expect(candidateNames('//cac:TaxCategory[//cac:Party[x = 1]]', ns)).to.deep.equal(['Q{urn:cac}TaxCategory']);
  });

  it('gives up on wildcards, attributes, text, the root and unknown prefixes', () => {
    for (const p of ['//*[not(*)]', 'cbc:ID/@schemeID', 'cbc:Note/text()', '/', 'zz:X', 'cac:A | *']) {
      expect(candidateNames(p, ns), p).to.equal(null);
    }
  });
});
