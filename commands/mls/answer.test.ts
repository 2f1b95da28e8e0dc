import { expect } from 'chai';
import { deliveryFailedVerdict, mlsOwed, mlsReceiver, mlsVerdict, type CheckFinding } from './answer.ts';

const finding = (overrides: Partial<CheckFinding> = {}): CheckFinding => ({
  rule: 'BR-CO-15', message: 'Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110).',
  location: '/*:Invoice[1]', flag: 'fatal', kind: 'rule', ...overrides,
});

describe('MLS: what corner 3 answers a received document', () => {
  it('AP with no issue when nothing is fatal; warnings alone never reject (2.2.1 iv)', () => {
    expect(mlsVerdict([])).to.deep.equal({ response_code: 'AP', description: null, issues: [] });
    expect(mlsVerdict([finding({ flag: 'warning', rule: 'PEPPOL-EN16931-R002' })]).response_code).to.equal('AP');
  });

  it('RE with every finding as a reason: fatal XSD SV, fatal rule BV, warning BW beside them; the rule id leads each description', () => {
    const verdict = mlsVerdict([
      finding({ kind: 'syntax', rule: 'XSD', message: 'Element cbc:Foo is not expected.', location: '' }),
      finding(),
      finding({ flag: 'warning', rule: 'PEPPOL-EN16931-R002', message: 'No more than one note is allowed on document level.' }),
    ]);
    expect(verdict.response_code).to.equal('RE');
    expect(verdict.description).to.match(/^Rejected: the document fails 2 rules .*\(XSD, BR-CO-15\)$/);
    expect(verdict.issues.map((i) => i.reason)).to.deep.equal(['SV', 'BV', 'BW']);
    expect(verdict.issues[0]).to.include({ location: 'NA', description: '[XSD] Element cbc:Foo is not expected.' });
    expect(verdict.issues[1]?.location).to.equal('/*:Invoice[1]');
    expect(verdict.issues[1]?.description.startsWith('[BR-CO-15] ')).to.equal(true);
    // a message that names its rule already (CEN's do) keeps it once; a parser's line:col is no location
    const cen = mlsVerdict([finding({ message: '[BR-01]-An Invoice shall have a Specification identifier', rule: 'BR-01', location: '12:7' })]);
    expect(cen.issues[0]).to.deep.equal({ location: 'NA', description: '[BR-01]-An Invoice shall have a Specification identifier', reason: 'BV' });
  });

  it('a document that cannot be handed on is RE with reason FD', () => {
    expect(deliveryFailedVerdict('the end user is gone')).to.deep.equal({
      response_code: 'RE', description: 'Rejected: the end user is gone', issues: [{ location: 'NA', description: 'the end user is gone', reason: 'FD' }],
    });
  });

  it('a rejection is always sent; a positive MLS only when the sender asked for every status (absent: the Network Policy default, failures only)', () => {
    expect(mlsOwed('RE', null)).to.equal(true);
    expect(mlsOwed('RE', 'FAILURE_ONLY')).to.equal(true);
    expect(mlsOwed('AP', 'ALWAYS_SEND')).to.equal(true);
    expect(mlsOwed('AB', 'ALWAYS_SEND')).to.equal(true);
    expect(mlsOwed('AP', 'FAILURE_ONLY')).to.equal(false);
    expect(mlsOwed('AP', null)).to.equal(false);
  });

  it('goes to MLS_TO when it is under the sending Access Point\'s own SPID, else to that SPID (OP-MLS-06, 07, 22)', () => {
    expect(mlsReceiver('0242:000123-AP2', '0242:000123')).to.equal('0242:000123-AP2');
    expect(mlsReceiver('0242:000123', '0242:000123')).to.equal('0242:000123');
    // a redirect to another provider is not allowed: the sender's own SPID instead
    expect(mlsReceiver('0242:000999', '0242:000123')).to.equal('0242:000123');
    expect(mlsReceiver(null, '0242:000123')).to.equal('0242:000123');
    // the sender's SPID unknown (a certificate without a seat id): MLS_TO as given, else nobody
    expect(mlsReceiver('0242:000999', null)).to.equal('0242:000999');
    expect(mlsReceiver(null, null)).to.equal(null);
  });
});
