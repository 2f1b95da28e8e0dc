/**
 * The sandbox company register: made-up companies with valid IČO check digits and DIČs (divisible
 * by 11, so SK + DIČ is a valid IČ DPH where one is VAT-registered), names with Slovak diacritics,
 * and one of each case a lookup meets: VAT-registered, not VAT-registered, terminated, only in RPO
 * (no statements filed yet, so no DIČ), and with a village address. docs/lookup.md lists them.
 */
export interface SandboxCompany {
  ico: string;
  name: string;
  street: string | null;
  city: string | null;
  postal_code: string | null;
  legal_form_code: string | null;
  /** null: not in RegisterUZ (no DIČ known) */
  dic: string | null;
  vat_registered: boolean;
  terminated: boolean;
}

export const SANDBOX_COMPANIES: readonly SandboxCompany[] = [
  {
    ico: '50100017', name: 'Kŕdeľ Šťastných Ďatľov s.r.o.', street: 'Hlavná 1234/12', city: 'Košice', postal_code: '040 01',
    legal_form_code: '112', dic: '2023456710', vat_registered: true, terminated: false,
  },
  {
    ico: '50100025', name: 'Stavebniny Košice a.s.', street: 'Južná trieda 8', city: 'Košice', postal_code: '040 01',
    legal_form_code: '121', dic: '2023456721', vat_registered: true, terminated: false,
  },
  {
    ico: '50100033', name: 'Mliekáreň Ľubovňa, družstvo', street: 'Popradská 45', city: 'Stará Ľubovňa', postal_code: '064 01',
    legal_form_code: '205', dic: '2023456732', vat_registered: true, terminated: false,
  },
  {
    ico: '50100041', name: 'Zaniknutá Účtovná Kancelária s.r.o.', street: 'Obchodná 3', city: 'Bratislava', postal_code: '811 06',
    legal_form_code: '112', dic: '2023456743', vat_registered: false, terminated: true,
  },
  {
    ico: '50100050', name: 'Ondrej Kováč – Čalúnnictvo', street: 'Malá Ida 123', city: 'Malá Ida', postal_code: '044 20',
    legal_form_code: '101', dic: '1087654321', vat_registered: false, terminated: false,
  },
  {
    ico: '50100068', name: 'Nová Firma Bez Závierky s.r.o.', street: 'Štúrova 7', city: 'Žilina', postal_code: '010 01',
    legal_form_code: '112', dic: null, vat_registered: false, terminated: false,
  },
  {
    ico: '50100076', name: 'Bratislavská Účtovná Kancelária, s.r.o.', street: 'Šancová 56', city: 'Bratislava', postal_code: '811 05',
    legal_form_code: '112', dic: '2023456754', vat_registered: true, terminated: false,
  },
];
