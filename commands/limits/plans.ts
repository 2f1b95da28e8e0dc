import { DomainError } from '../shared/domain-error.ts';

/**
 * What each plan allows: request rate (the spec's table), monthly invoice quota and plan-gated
 * features (the spec shows no values for these two; ours are below). A plan is named by its tier's
 * display name ('Team Business'), as organisations and token claims carry it.
 */
export type Feature = 'csv_export' | 'pdf_export' | 'bulk_import' | 'analytics';

/** The spec's marker for "no limit", used for rates and quotas alike. */
const UNLIMITED = -1;

export interface Plan {
  name: string;
  /** requests per minute, the bucket's refill rate; UNLIMITED for none */
  rpm: number;
  /** the bucket's size: how many requests may come at once */
  burst: number;
  /** invoices counted per calendar month; UNLIMITED for none */
  monthlyInvoices: number;
  /** past the quota: true bills the extra invoices, false refuses them (402) */
  overage: boolean;
  features: readonly Feature[];
}

const EXPORT: Feature[] = ['csv_export', 'pdf_export'];
const EXPORT_IMPORT: Feature[] = [...EXPORT, 'bulk_import'];
const ALL: Feature[] = [...EXPORT_IMPORT, 'analytics'];
const U = UNLIMITED;

const row = (name: string, rpm: number, burst: number, monthlyInvoices: number, overage: boolean, features: Feature[]): Plan => ({
  name,
  rpm,
  burst,
  monthlyInvoices,
  overage,
  features,
});

// rpm and burst are the spec's; invoices, overage and features are ours. Bulk import starts at
// Solo Starter, whose hard quota (no overage) an import can meet: its remaining invoices are refused.
export const PLANS: readonly Plan[] = [
  //   tier                  rpm  burst  invoices/month  overage  features
  row('Solo Free',            10,    15,     10,           false,   []),
  row('Solo Lite',            30,    50,     50,           false,   []),
  row('Solo Starter',         60,   100,    200,           false,   EXPORT_IMPORT),
  row('Team Business',       120,   200,   1000,           true,    EXPORT_IMPORT),
  row('Team Professional',   200,   400,   5000,           true,    ALL),
  row('Team Enterprise',     500,  1000,      U,           true,    ALL),
  row('Team Custom',           U,     U,      U,           true,    ALL),
  row('Connect Sandbox',      10,    15,    100,           false,   EXPORT),
  row('Connect Basic',        60,   100,   1000,           true,    EXPORT),
  row('Connect Pro',         200,   400,  10000,           true,    ALL),
  row('Connect Enterprise',    U,     U,      U,           true,    ALL),
  row('Plug Single Store',    60,   100,    500,           false,   EXPORT),
  row('Plug Multi-Store',     60,   100,   2000,           true,    EXPORT_IMPORT),
];

/**
 * For a plan we cannot determine (null, or a name not in the table). The spec's rate fallback,
 * 30 rpm / burst 50, is Solo Lite's; we give such a caller Solo Lite's other limits too, so an
 * unknown name never grants more than a paid entry plan.
 */
export const FALLBACK_PLAN: Plan = row('unknown', 30, 50, 50, false, []);

// token claims and stored names may differ in case and separators ('team_business', 'Plug Multi Store')
const normalise = (name: string) => name.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
const BY_NAME = new Map(PLANS.map((p) => [normalise(p.name), p]));

/** The plan of that name, or undefined when the name is unknown. */
function findPlan(name: string | null | undefined): Plan | undefined {
  return name ? BY_NAME.get(normalise(name)) : undefined;
}

/** The plan of that name; FALLBACK_PLAN when it cannot be determined. */
export function planOf(name: string | null | undefined): Plan {
  return findPlan(name) ?? FALLBACK_PLAN;
}

/** How a plan is named in error bodies: the tier's display name, or what we were given when unknown. */
export function planLabel(name: string | null | undefined): string | null {
  return findPlan(name)?.name ?? (name?.trim() || null);
}

export const isUnlimited = (value: number) => value < 0;

/** The bucket a caller on this plan gets; `plan` is its label for the 429 body. */
export function rateLimitOf(plan: string | null | undefined): { rpm: number; burst: number; plan: string | null } {
  const { rpm, burst } = planOf(plan);
  return { rpm, burst, plan: planLabel(plan) };
}

export function hasFeature(plan: string | null | undefined, feature: Feature): boolean {
  return planOf(plan).features.includes(feature);
}

/** Refuses a plan-gated action with the spec's 403 `feature_not_available`. */
export function requireFeature(plan: string | null | undefined, feature: Feature): void {
  if (hasFeature(plan, feature)) return;
  const current = planLabel(plan);
  throw new DomainError('feature_not_available', `${feature} is not available on the ${current ?? 'current'} plan`, {
    feature,
    current_plan: current,
    // upgrade_url: the front door adds the deployment's (UPGRADE_URL), which a rule cannot know
  });
}
