/**
 * Generated invoices and credit notes for the UBL property test, from a seed. The matrix covers the
 * Slovak rates (23/19/5), 0 % with Z, E with a VATEX reason, AE (domestic reverse charge), K
 * (intra-community supply to a buyer in another EU country), O (not subject to VAT: every line O,
 * parties with VAT ids the document leaves out), percentage and amount discounts, CZK
 * with a Czech IBAN, payment means without an IBAN, 1 to 200 lines, with and without delivery date,
 * variable symbol, due date, order reference and note.
 */
import { Decimal } from 'decimal.js';
import type { InvoiceContent, InvoiceLine, InvoiceTypeCode, PaymentMeansCode, VatCategoryCode } from '../../../commands/invoices/model.ts';
import { czechIban, euCompany, slovakCompany, slovakIban } from './identities.ts';
import { Seeded } from './seeded.ts';

type Scenario = 'domestic' | 'reverse-charge' | 'intra-community' | 'not-subject';

const UNITS = ['EA', 'C62', 'H87', 'HUR', 'DAY', 'E49', 'MON', 'KGM', 'MTR', 'LTR'] as const;
const ITEMS = ['Konzultácie', 'Licencia softvéru', 'Servis & údržba', 'Doprava <expres>', 'Tlačiareň "A4"', 'Papier', 'Káva'] as const;
const E_REASONS = ['VATEX-EU-132', 'VATEX-EU-143', 'VATEX-EU-132-1I'] as const;

function isoDate(base: Date, plusDays: number): string {
  return new Date(base.getTime() + plusDays * 86_400_000).toISOString().slice(0, 10);
}

function lineCount(rng: Seeded, index: number): number {
  if (index % 45 === 0) return 200;
  if (index % 45 === 22) return rng.int(100, 199);
  if (index % 10 === 3) return 1;
  if (index % 10 === 7) return rng.int(20, 60);
  return rng.int(1, 8);
}

function vatOf(rng: Seeded, scenario: Scenario, eReason: string): Pick<InvoiceLine, 'vat_rate' | 'vat_category_code' | 'vat_exemption_reason_code'> {
  // BR-O-11: a document not subject to VAT has no other category, so every line is O
  if (scenario === 'not-subject') return { vat_rate: '0', vat_category_code: 'O', vat_exemption_reason_code: 'VATEX-EU-O' };
  const standard = () => ({ vat_rate: rng.pick(['23', '19', '5']), vat_category_code: 'S' as VatCategoryCode, vat_exemption_reason_code: null });
  if (scenario === 'reverse-charge' && rng.chance(0.7)) return { vat_rate: '0', vat_category_code: 'AE', vat_exemption_reason_code: 'VATEX-EU-AE' };
  if (scenario === 'intra-community' && rng.chance(0.8)) return { vat_rate: '0', vat_category_code: 'K', vat_exemption_reason_code: 'VATEX-EU-IC' };
  const roll = rng.next();
  if (scenario === 'domestic' && roll < 0.12) return { vat_rate: '0', vat_category_code: 'Z', vat_exemption_reason_code: null };
  if (scenario === 'domestic' && roll < 0.24) return { vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: eReason };
  return standard();
}

function line(rng: Seeded, n: number, scenario: Scenario, eReason: string, allowNegative: boolean): InvoiceLine {
  const quantity = rng.pick(['1', '2', '3', '10', '2.5', '0.125', '12.75', '100', '1.333']);
  const unitPrice = rng.pick(['0.99', '1', '12.50', '19.9', '99.99', '250', '1234.5678', '0.0125', '7.77', '3333.33']);
  const gross = new Decimal(quantity).times(unitPrice);
  const discountRoll = rng.next();
  const negative = allowNegative && rng.chance(0.08);
  return {
    line_number: n,
    item_name: `${rng.pick(ITEMS)} ${n}`,
    quantity: negative ? `-${quantity}` : quantity,
    unit_code: rng.pick(UNITS),
    unit_price: unitPrice,
    ...vatOf(rng, scenario, eReason),
    discount_percentage: discountRoll < 0.2 ? rng.pick(['5', '10', '12.5', '33.33', '50', '2.75']) : null,
    discount_amount:
      discountRoll >= 0.2 && discountRoll < 0.35 && !negative && gross.greaterThanOrEqualTo(1)
        ? gross.times(rng.pick(['0.1', '0.25', '0.5'])).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2)
        : null,
  };
}

/** The index-th generated document of a seeded run. */
export function generateInvoice(seed: number, index: number): InvoiceContent {
  const rng = new Seeded(seed * 1_000_003 + index);
  const type: InvoiceTypeCode = index % 3 === 2 ? '381' : '380';
  const scenario: Scenario =
    index % 11 === 6 ? 'not-subject' : index % 5 === 1 ? 'reverse-charge' : index % 5 === 3 ? 'intra-community' : 'domestic';
  const czk = scenario !== 'intra-community' && index % 7 === 4;
  const issued = new Date(Date.UTC(2025, rng.int(0, 11), rng.int(1, 28)));
  const supplier = slovakCompany(rng, rng.pick(['Dodávateľ s.r.o.', 'ACME Slovakia a.s.', 'Tatra & synovia, k.s.']));
  const buyer =
    scenario === 'intra-community'
      ? euCompany(rng, rng.pick(['Odběratel s.r.o.', 'Kunde GmbH', 'Nabywca Sp. z o.o.']))
      : slovakCompany(rng, rng.pick(['Odberateľ s.r.o.', 'Mesto Trnava', 'Ján Novák – živnostník']), {
          vatRegistered: scenario === 'reverse-charge' || rng.chance(0.85),
        });

  let paymentMeans: PaymentMeansCode = '30';
  let iban: string | null = czk ? czechIban(rng) : slovakIban(rng);
  if (rng.chance(0.15)) {
    paymentMeans = rng.pick(['42', '48'] as const);
    iban = rng.chance(0.5) ? null : iban;
  }
  const eReason = rng.pick(E_REASONS);
  const count = lineCount(rng, index);
  const lines = Array.from({ length: count }, (_, i) => line(rng, i + 1, scenario, eReason, type === '380' && count >= 3));
  const number = `${type === '381' ? 'DOB' : 'FA'}-2025-${String(index + 1).padStart(5, '0')}`;
  return {
    invoice_number: number,
    invoice_type: type,
    issue_date: isoDate(issued, 0),
    due_date: type === '381' && rng.chance(0.5) ? null : isoDate(issued, rng.pick([7, 14, 30])),
    delivery_date: rng.chance(0.5) ? isoDate(issued, -rng.int(1, 20)) : null,
    currency_code: czk ? 'CZK' : 'EUR',
    supplier,
    buyer,
    customer_id: null,
    supplier_iban: iban,
    payment_means_code: paymentMeans,
    variable_symbol: rng.chance(0.6) ? rng.digits(rng.int(4, 10)) : null,
    note: rng.chance(0.3) ? 'Ďakujeme za nákup & tešíme sa <na> ďalšiu spoluprácu.' : null,
    buyer_reference: rng.chance(0.3) ? `PO-${rng.digits(6)}` : null,
    order_reference: rng.chance(0.3) ? `OBJ-${rng.digits(5)}` : null,
    billing_reference: type === '381' ? { invoice_number: `FA-2025-${rng.digits(5)}`, issue_date: isoDate(issued, -rng.int(5, 60)) } : null,
    lines,
  };
}
