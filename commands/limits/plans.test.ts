import { expect } from 'chai';
import { DomainError } from '../shared/domain-error.ts';
import { FALLBACK_PLAN, PLANS, hasFeature, planOf, rateLimitOf, requireFeature } from './plans.ts';

describe('plans', () => {
  it("gives each tier the spec's rpm and burst", () => {
    const table: Record<string, [number, number]> = {
      'Solo Free': [10, 15],
      'Solo Lite': [30, 50],
      'Solo Starter': [60, 100],
      'Team Business': [120, 200],
      'Team Professional': [200, 400],
      'Team Enterprise': [500, 1000],
      'Connect Sandbox': [10, 15],
      'Connect Basic': [60, 100],
      'Connect Pro': [200, 400],
      'Connect Enterprise': [-1, -1],
      'Plug Single Store': [60, 100],
      'Plug Multi-Store': [60, 100],
      'Team Custom': [-1, -1],
    };
    for (const [plan, [rpm, burst]] of Object.entries(table)) expect(rateLimitOf(plan), plan).to.deep.equal({ rpm, burst, plan });
    expect(PLANS.map((p) => p.name)).to.have.members(Object.keys(table));
  });

  it('falls back to 30 rpm and burst 50 when the plan is unknown or missing', () => {
    expect(rateLimitOf(null)).to.deep.equal({ rpm: 30, burst: 50, plan: null });
    expect(rateLimitOf('Gold')).to.deep.equal({ rpm: 30, burst: 50, plan: 'Gold' });
  });

  it('reads a plan name whatever its case and separators', () => {
    expect(planOf('team_business').name).to.equal('Team Business');
    expect(rateLimitOf(' plug multi store ').plan).to.equal('Plug Multi-Store');
  });

  it('gives an unknown plan no more than Solo Lite: its quota, no overage, no features', () => {
    expect(planOf('Gold')).to.equal(FALLBACK_PLAN);
    expect(FALLBACK_PLAN).to.include({ monthlyInvoices: 50, overage: false });
    expect(FALLBACK_PLAN.features).to.deep.equal([]);
  });

  it('gates features by plan', () => {
    expect(hasFeature('Solo Free', 'csv_export')).to.equal(false);
    expect(hasFeature('Solo Starter', 'pdf_export')).to.equal(true);
    expect(hasFeature('Team Business', 'bulk_import')).to.equal(true);
    expect(hasFeature('Solo Starter', 'bulk_import')).to.equal(true);
    expect(hasFeature('Solo Lite', 'bulk_import')).to.equal(false);
    expect(hasFeature('Team Business', 'analytics')).to.equal(false);
    expect(hasFeature('Team Professional', 'analytics')).to.equal(true);
    expect(hasFeature(null, 'csv_export')).to.equal(false);
  });

  it('refuses a missing feature with 403 feature_not_available, naming the plan and where to upgrade', () => {
    expect(() => requireFeature('Team Professional', 'analytics')).to.not.throw();
    let caught: unknown;
    try {
      requireFeature('solo free', 'csv_export');
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(DomainError);
    const error = caught as DomainError;
    expect(error.code).to.equal('feature_not_available');
    expect(error.extra).to.deep.equal({ feature: 'csv_export', current_plan: 'Solo Free' });
  });
});
