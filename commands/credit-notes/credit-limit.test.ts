import { expect } from 'chai';
import { DomainError } from '../shared/domain-error.ts';
import { CreditLimitExceeded } from './credit-limit.ts';

describe('credit_limit_exceeded (422 flavour 3)', () => {
  it('is a DomainError whose body is {error, message, details[]}', () => {
    const details = [{ rule: 'row_cap' as const, field: 'lines[0].quantity', left_quantity: '1' }, { rule: 'row_repeated' as const, field: 'lines[1].source_line_id' }];
    const error = new CreditLimitExceeded(details);
    expect(error).to.be.instanceOf(DomainError);
    expect(error).to.deep.include({ code: 'credit_limit_exceeded', details });
    // what HTTP answers for a DomainError: {detail: {error, message, ...extra}}
    expect({ error: error.code, message: error.message, ...error.extra }).to.deep.equal({ error: 'credit_limit_exceeded', message: error.message, details });
  });
});
