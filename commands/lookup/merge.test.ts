import { expect } from 'chai';
import { DomainError } from '../shared/domain-error.ts';
import { dicFrom, mergeLookup } from './merge.ts';
import type { CompanyFacts, SourceName, SourceOutcome } from './sources.ts';

const ICO = '50100017';
const DIC = '2023456710';
const found = (source: SourceName, facts: CompanyFacts): SourceOutcome => ({ source, status: 'found', facts });
const down = (source: SourceName): SourceOutcome => ({ source, status: 'unavailable', reason: 'timed out' });
const missing = (source: SourceName): SourceOutcome => ({ source, status: 'not_found' });
const notAsked: SourceOutcome = { source: 'vies', status: 'not_asked' };

const rpo = found('rpo', { name: 'Kŕdeľ s.r.o.', street: 'Hlavná 12', city: 'Košice', postal_code: '040 01', country_code: 'SK', legal_form_code: '112', terminated: false });
const ruz = found('registeruz', { name: 'KRDEL s.r.o.', street: 'Iná 1', city: 'Prešov', postal_code: '080 01', dic: DIC, legal_form_code: '121' });
const viesYes = found('vies', { vat_registered: true });
const viesNo = found('vies', { vat_registered: false });

function refusal(outcomes: SourceOutcome[]): DomainError {
  try {
    mergeLookup(ICO, outcomes);
  } catch (error) {
    expect(error).to.be.instanceOf(DomainError);
    return error as DomainError;
  }
  return expect.fail('expected a refusal');
}

describe('lookup: merging the registers\' answers', () => {
  it('all three answer: RPO\'s name, address and legal form, RegisterUZ\'s DIČ, VIES\'s VAT status', () => {
    expect(mergeLookup(ICO, [rpo, ruz, viesYes])).to.deep.equal({
      answer: {
        ico: ICO, name: 'Kŕdeľ s.r.o.', street: 'Hlavná 12', city: 'Košice', postal_code: '040 01', country_code: 'SK', dic: DIC,
        ic_dph: `SK${DIC}`, is_vat_registered: true, legal_form_code: '112', sources: ['rpo', 'registeruz', 'vies'],
      },
      complete: true,
    });
  });

  it('VIES says not registered: is_vat_registered false, no ic_dph, and vies is a source (it answered)', () => {
    const { answer } = mergeLookup(ICO, [rpo, ruz, viesNo]);
    expect(answer).to.include({ is_vat_registered: false, ic_dph: null, dic: DIC });
    expect(answer.sources).to.deep.equal(['rpo', 'registeruz', 'vies']);
  });

  it('VIES down: a partial answer, not VAT-registered by default, sources without vies', () => {
    const merged = mergeLookup(ICO, [rpo, ruz, down('vies')]);
    expect(merged.answer).to.include({ is_vat_registered: false, ic_dph: null, dic: DIC });
    expect(merged.answer.sources).to.deep.equal(['rpo', 'registeruz']);
    expect(merged.complete).to.equal(false);
  });

  it('RPO down: RegisterUZ gives name, address and legal form too', () => {
    const merged = mergeLookup(ICO, [down('rpo'), ruz, viesYes]);
    expect(merged.answer).to.include({ name: 'KRDEL s.r.o.', street: 'Iná 1', city: 'Prešov', postal_code: '080 01', legal_form_code: '121', is_vat_registered: true });
    expect(merged.answer.sources).to.deep.equal(['registeruz', 'vies']);
    expect(merged.complete).to.equal(false);
  });

  it('RegisterUZ down (or without the company): no DIČ, so VIES is not asked; unknown values are null', () => {
    const merged = mergeLookup(ICO, [rpo, down('registeruz'), notAsked]);
    expect(merged.answer).to.include({ dic: null, ic_dph: null, is_vat_registered: false });
    expect(merged.answer.sources).to.deep.equal(['rpo']);
    expect(merged.complete).to.equal(false);
    expect(mergeLookup(ICO, [rpo, missing('registeruz'), notAsked]).complete).to.equal(true);
  });

  it('takes the address as one block: never a street of one register with another\'s postal code', () => {
    const partialRpo = found('rpo', { name: 'A s.r.o.', street: null, city: 'Žilina', postal_code: null });
    const { answer } = mergeLookup(ICO, [partialRpo, ruz, notAsked]);
    expect(answer).to.include({ street: null, city: 'Žilina', postal_code: null });
    const noAddress = found('rpo', { name: 'A s.r.o.', street: ' ', city: null, postal_code: null });
    expect(mergeLookup(ICO, [noAddress, ruz, notAsked]).answer).to.include({ street: 'Iná 1', city: 'Prešov', postal_code: '080 01' });
  });

  it('a seat abroad keeps its country; otherwise SK', () => {
    const abroad = found('rpo', { name: 'Zahraničná', city: 'Wien', country_code: 'at' });
    expect(mergeLookup(ICO, [abroad, missing('registeruz'), notAsked]).answer.country_code).to.equal('AT');
    expect(mergeLookup(ICO, [found('rpo', { name: 'Bez adresy' }), missing('registeruz'), notAsked]).answer).to.include({ country_code: 'SK', street: null, city: null });
  });

  it('distrusts a DIČ that is not 10 digits: null, and VIES would not be asked', () => {
    const odd = found('registeruz', { dic: '12345678' });
    expect(dicFrom([rpo, odd])).to.equal(null);
    expect(mergeLookup(ICO, [rpo, odd, viesYes]).answer).to.include({ dic: null, ic_dph: null, is_vat_registered: false });
  });

  it('trims names and collapses their spaces; an empty one is null', () => {
    const spaced = found('rpo', { name: '  Dvojitá   medzera  s.r.o. ' });
    expect(mergeLookup(ICO, [spaced, missing('registeruz'), notAsked]).answer.name).to.equal('Dvojitá medzera s.r.o.');
    const blank = found('rpo', { name: '' });
    expect(mergeLookup(ICO, [blank, missing('registeruz'), notAsked]).answer.name).to.equal(null);
  });

  it('nobody has it and RPO says so: 404 company_not_found', () => {
    expect(refusal([missing('rpo'), missing('registeruz'), notAsked])).to.include({ code: 'company_not_found' });
    expect(refusal([missing('rpo'), down('registeruz'), notAsked])).to.include({ code: 'company_not_found' });
  });

  it('every source that could know is down: 502 company_registry_unavailable naming them', () => {
    const all = refusal([down('rpo'), down('registeruz'), notAsked]);
    expect(all).to.include({ code: 'company_registry_unavailable' });
    expect(all.extra).to.deep.equal({ unavailable: ['rpo', 'registeruz'] });
    // RPO down and RegisterUZ without it: nobody can tell whether it exists
    expect(refusal([down('rpo'), missing('registeruz'), notAsked]).extra).to.deep.equal({ unavailable: ['rpo'] });
  });
});
