import { expect } from 'chai';
import { PLANS, hasFeature } from '../limits/plans.ts';
import { DomainError } from '../shared/domain-error.ts';
import { EXPORT_FEATURES, requireExport } from './gate.ts';

describe('export gate', () => {
  it('the invoice register CSV needs csv_export: a plan without it is refused 403 feature_not_available', () => {
    expect(EXPORT_FEATURES.invoice_register_csv).to.equal('csv_export');
    for (const plan of PLANS) {
      if (hasFeature(plan.name, 'csv_export')) expect(() => requireExport(plan.name, 'invoice_register_csv'), plan.name).not.to.throw();
      else {
        expect(() => requireExport(plan.name, 'invoice_register_csv'), plan.name).to.throw(DomainError).that.deep.includes({ code: 'feature_not_available' });
      }
    }
  });

  it('an unknown or missing plan has no CSV export (the fallback grants no feature)', () => {
    for (const plan of [null, undefined, 'Gold']) expect(() => requireExport(plan, 'invoice_register_csv')).to.throw(DomainError);
  });

  it('the refusal names the feature and the plan (the front door adds where to upgrade)', () => {
    try {
      requireExport('Solo Free', 'invoice_register_csv');
      expect.fail('not refused');
    } catch (error) {
      expect((error as DomainError).extra).to.deep.include({ feature: 'csv_export', current_plan: 'Solo Free' });
    }
  });

  it("one document's PDF is not gated: every plan, even an unknown one, may hand a buyer its document (credit-note rule 7)", () => {
    expect(EXPORT_FEATURES.document_pdf).to.equal(null);
    for (const plan of [...PLANS.map((p) => p.name), null, 'Gold']) expect(() => requireExport(plan, 'document_pdf'), String(plan)).not.to.throw();
  });
});
