// Valid Slovak (and a few foreign EU) identities from a seeded generator, for generated invoices.
import type { Party } from '../../../commands/invoices/model.ts';
import { ibanMod97, icoCheckDigit, sandboxPeppolId, skIban } from '../../../commands/shared/slovak-identifiers.ts';
import type { Seeded } from './seeded.ts';

/** A DIČ of a legal person (starts with 20) divisible by 11, so SK + it is a valid IČ DPH. */
export function dic(rng: Seeded): string {
  for (;;) {
    const stem = `20${rng.digits(7)}`;
    const last = (11 - Number((BigInt(stem) * 10n) % 11n)) % 11;
    if (last < 10) return `${stem}${last}`;
  }
}

export function ico(rng: Seeded): string {
  const stem = `${rng.int(3, 5)}${rng.digits(6)}`;
  return `${stem}${icoCheckDigit(stem)}`;
}

export function slovakIban(rng: Seeded): string {
  return skIban(rng.pick(['0900', '1100', '0200', '7500', '5600']), rng.digits(10));
}

/** A Czech IBAN (CZ + 2 check digits + 20 digits) with correct mod-97 check digits. */
export function czechIban(rng: Seeded): string {
  const bban = `${rng.pick(['0100', '0300', '0800', '2010'])}${rng.digits(16)}`;
  const check = 98 - ibanMod97(`CZ00${bban}`);
  return `CZ${String(check).padStart(2, '0')}${bban}`;
}

const CITIES = [
  ['Bratislava', '811 01', 'Hlavná 1'],
  ['Košice', '04001', 'Mlynská 12/A'],
  ['Žilina', '010 01', 'Štúrova 7'],
  ['Banská Bystrica', '974 01', 'Námestie SNP 3'],
] as const;

export function slovakCompany(rng: Seeded, name: string, opts: { vatRegistered?: boolean } = {}): Party {
  const d = dic(rng);
  const vatId = `SK${d}`;
  const [city, postal, street] = rng.pick(CITIES);
  const vatRegistered = opts.vatRegistered ?? true;
  return {
    name,
    vat_id: vatRegistered ? vatId : '',
    ico: ico(rng),
    dic: d,
    // a party that is not VAT-registered is still addressed by the sandbox id of its DIČ digits
    peppol_id: vatRegistered ? sandboxPeppolId(vatId) : `0245:${d}`,
    street: rng.chance(0.9) ? street : '',
    city,
    postal_code: postal,
    country_code: 'SK',
  };
}

/** A buyer in another EU country, addressed by its VAT number's Peppol scheme. */
export function euCompany(rng: Seeded, name: string): Party {
  const options = [
    { country: 'CZ', scheme: '9929', vat: `CZ${rng.digits(8)}`, city: 'Brno', postal: '602 00', street: 'Masarykova 4' },
    { country: 'AT', scheme: '9914', vat: `ATU${rng.digits(8)}`, city: 'Wien', postal: '1010', street: 'Ringstraße 2' },
    { country: 'PL', scheme: '9945', vat: `PL${rng.digits(10)}`, city: 'Kraków', postal: '31-001', street: 'Floriańska 9' },
    { country: 'HU', scheme: '9910', vat: `HU${rng.digits(8)}`, city: 'Budapest', postal: '1051', street: 'Váci utca 5' },
  ] as const;
  const o = rng.pick(options);
  return {
    name,
    vat_id: o.vat,
    ico: null,
    dic: null,
    peppol_id: `${o.scheme}:${o.vat}`,
    street: o.street,
    city: o.city,
    postal_code: o.postal,
    country_code: o.country,
  };
}
